const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/**
 * Markup that is safe to put in a page as it is. Only `html` and `trustedHtml`
 * make one, so a string can never pass for markup by accident.
 */
export class SafeHtml {
  /** @internal use `html` or `trustedHtml`. */
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/**
 * What `html` accepts in a `${…}`: text and numbers are escaped, SafeHtml is
 * kept, arrays are joined without a separator, and `false`, `null` and
 * `undefined` leave nothing (so `${cond && html`…`}` works).
 */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

/**
 * The escaping template: ``html`<p>${name}</p>` `` escapes every
 * interpolated value unless it is already SafeHtml, so a page built from it
 * cannot forget to escape a name.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? "");
  return new SafeHtml(out);
}

/** Markup written by this program (a style sheet, a constant), taken as it is. Never pass outside text. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.text;
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/** `parts` one after the other with `separator` (markup written here, e.g. "\n" or " · ") between them. */
export function joinHtml(parts: readonly HtmlValue[], separator: string): SafeHtml {
  return new SafeHtml(parts.map(render).join(separator));
}
