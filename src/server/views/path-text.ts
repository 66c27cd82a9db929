import { html, joinHtml, type SafeHtml } from "../../lib/html.js";

/**
 * A path in a `<code class="path">` that may wrap after each `/` (a `<wbr>`
 * there) and nowhere else while a segment fits the line (the style sheet
 * keeps words whole), so "/data/TV/Show Name/Season 1" never breaks inside a
 * name.
 */
export function pathText(path: string): SafeHtml {
  const parts = path.split("/");
  return html`<code class="path">${joinHtml(
    parts.map((part, i) => (i < parts.length - 1 ? html`${part}/` : part)),
    "<wbr>",
  )}</code>`;
}
