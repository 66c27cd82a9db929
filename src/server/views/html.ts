import { html, type SafeHtml, trustedHtml } from "../../lib/html.js";

// Colours are variables, so the user's light or dark preference picks them.
const STYLE = trustedHtml(`
:root{color-scheme:light dark;--fg:#1d232a;--muted:#5b6670;--bg:#fafbfc;--panel:#fff;--line:#dde2e6;--accent:#2563eb;--accent-fg:#fff;
--ok:#166534;--warn:#92400e;--bad:#b91c1c;--ok-bg:#dcfce7;--warn-bg:#fef3c7;--bad-bg:#fee2e2;--notice:#e0ecff}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9ec;--muted:#9aa5b1;--bg:#111418;--panel:#1a1f25;--line:#2f363e;--accent:#4f8cff;--accent-fg:#0b0e12;
--ok:#6ee7a0;--warn:#fbbf5a;--bad:#fca5a5;--ok-bg:#11331f;--warn-bg:#3a2a0c;--bad-bg:#3f1616;--notice:#1c2c4a}}
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;max-width:72rem;margin:1.5rem auto;padding:0 1rem;color:var(--fg);background:var(--bg);line-height:1.4}
a{color:var(--accent)}h1{font-size:1.5rem}form{display:flex;gap:.5rem;margin:1rem 0}
input[type=text],input[type=password],input[type=number],select{padding:.45rem;font:inherit;color:var(--fg);background:var(--panel);border:1px solid var(--line);border-radius:4px;min-width:0}
input[type=text],input[type=password]{flex:1}
button{padding:.45rem 1rem;font:inherit;border:0;border-radius:4px;background:var(--accent);color:var(--accent-fg);cursor:pointer}
table{border-collapse:collapse;width:100%;font-size:.9rem}td,th{border-bottom:1px solid var(--line);padding:.35rem;text-align:left;vertical-align:top}
.state-pending,.state-delivering,.state-waiting-for-files,.state-confirming,.state-held,.state-retrying{color:var(--warn)}
.state-debouncing,.state-queued{color:var(--muted)}.state-done{color:var(--ok)}
.state-failed,.state-unconfirmed{color:var(--bad)}
.notice{padding:.75rem 1rem;border-radius:4px;background:var(--notice)}.error{background:var(--bad-bg)}
code{word-break:break-all}`);

/** A complete page around `body`, which the `html` template escaped; `extraStyle` follows the common style sheet. */
export function page(title: string, body: SafeHtml, extraStyle?: SafeHtml): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title><style>${STYLE}${extraStyle}</style></head>
<body>${body}</body></html>
`.text;
}
