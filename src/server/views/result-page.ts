import { html } from "../../lib/html.js";
import { page } from "./html.js";

/** What the browser form shows after a submission: what was queued, or why not. */
export function renderResultPage(ok: boolean, heading: string, lines: string[]): string {
  const items = lines.map((l) => html`<li><code>${l}</code></li>`);
  return page(
    `scanarr — ${heading}`,
    html`<h1>${heading}</h1>
<div class="notice${ok ? "" : " error"}" id="result"><ul>${items}</ul></div>
<p><a href="">Back to the manual scan page</a></p>`,
  );
}
