import { html, type SafeHtml, trustedHtml } from "../../lib/html.js";

const STYLE = trustedHtml(`
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d232a;background:#fafbfc}
h1{font-size:1.5rem}form{display:flex;gap:.5rem;margin:1rem 0}
input[type=text],input[type=password]{flex:1;padding:.5rem;font:inherit;border:1px solid #9aa4ad;border-radius:4px}
button{padding:.5rem 1rem;font:inherit;border:0;border-radius:4px;background:#2563eb;color:#fff;cursor:pointer}
table{border-collapse:collapse;width:100%;font-size:.9rem}td,th{border-bottom:1px solid #dde2e6;padding:.35rem;text-align:left;vertical-align:top}
.state-pending,.state-delivering{color:#92400e}.state-done{color:#166534}.state-failed{color:#b91c1c}
.notice{padding:.75rem 1rem;border-radius:4px;background:#e0ecff}.error{background:#fde2e2}
code{word-break:break-all}`);

/** A complete page around `body`, which the `html` template escaped. */
export function page(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title><style>${STYLE}</style></head>
<body>${body}</body></html>
`.text;
}
