import { html, type SafeHtml } from "../../lib/html.js";

/** "in 2 min", "3 h ago", "now": how far `then` is from `now`, to the second below a minute (a quiet time lasts seconds). */
export function relativeTime(then: number, now: number): string {
  const ms = then - now;
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 1) return "now";
  const span =
    s < 60 ? `${s} s` : s < 3600 ? `${Math.round(s / 60)} min` : s < 172_800 ? `${Math.round(s / 3600)} h` : `${Math.round(s / 86_400)} d`;
  return ms > 0 ? `in ${span}` : `${span} ago`;
}

/** A <time> element: the relative time, the exact ISO 8601 time on hover and in `datetime` (the script refreshes the text). */
export function timeTag(then: number | null | undefined, now: number): SafeHtml {
  if (then === null || then === undefined) return html`—`;
  const iso = new Date(then).toISOString();
  return html`<time datetime="${iso}" title="${iso}">${relativeTime(then, now)}</time>`;
}
