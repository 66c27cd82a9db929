import { trustedHtml } from "../../lib/html.js";

/**
 * The dashboard's own rules after the common style sheet (views/html.ts).
 * Paths wrap after a `/` and keep names whole (break-word only for a single
 * name wider than the screen); below 44rem the tables turn into one card per
 * scan, so nothing scrolls sideways at phone width.
 */
export const DASHBOARD_STYLE = trustedHtml(`
.top{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:.5rem}.top h1{margin:.25rem 0}
#logout{margin:0;align-items:center}
code.path{word-break:keep-all;overflow-wrap:break-word}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}h3{font-size:1rem;margin:.25rem 0 .5rem}
#health{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.5rem .75rem}
.facts{list-style:none;display:flex;flex-wrap:wrap;gap:.35rem .6rem;margin:0;padding:0}
.fact{padding:.15rem .55rem;border-radius:999px;font-size:.9rem}.fact .dot{display:inline-block;width:.6rem;height:.6rem;border-radius:50%;margin-right:.35rem;background:currentColor}
.tone-ok{color:var(--ok);background:var(--ok-bg)}.tone-warn{color:var(--warn);background:var(--warn-bg)}.tone-bad{color:var(--bad);background:var(--bad-bg)}
#reasons{margin:.5rem 0 0;padding-left:1.25rem;color:var(--bad);font-size:.9rem}.links{margin:.4rem 0 0;font-size:.85rem}
.count,.total{display:inline-block;margin-right:.75rem}
table.scans td.actions{white-space:nowrap}table.scans td.actions form{margin:0 0 .25rem}
table.scans button{padding:.2rem .6rem;font-size:.85rem}
.reason{color:var(--muted)}.error-text{color:var(--bad)}
details summary{cursor:pointer;color:var(--muted);font-size:.85rem}details ul{margin:.25rem 0;padding-left:1.1rem;font-size:.85rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.tools{display:grid;grid-template-columns:repeat(auto-fit,minmax(18rem,1fr));gap:.75rem}
.tool{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.5rem .75rem}
.tool form{margin:.25rem 0;align-items:center;flex-wrap:wrap}.tool label{font-size:.85rem;color:var(--muted)}
.tool .hint{font-size:.8rem;color:var(--muted);margin:.25rem 0}
#filter label{display:flex;flex-direction:column;gap:.15rem}#filter .grow{flex:1}#clear input{width:5rem}
#trace{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.8rem}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(20rem,1fr));gap:.75rem}
.chart{margin:0;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.5rem}
.chart figcaption{font-size:.9rem;margin-bottom:.25rem}.chart svg{width:100%;height:auto;display:block}
.chart svg text{font-size:11px;fill:var(--muted)}.chart svg line{stroke:var(--line)}
.series-0{fill:#3b82f6;background:#3b82f6}.series-1{fill:#f59e0b;background:#f59e0b}.series-2{fill:#10b981;background:#10b981}
.series-3{fill:#ef4444;background:#ef4444}.series-4{fill:#8b5cf6;background:#8b5cf6}.series-5{fill:#64748b;background:#64748b}
.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.75rem;margin:.25rem 0;padding:0;font-size:.8rem}
.swatch{display:inline-block;width:.7rem;height:.7rem;margin-right:.3rem;border-radius:2px}
.chart-table{font-size:.8rem}
@media (max-width:44rem){
body{margin:.75rem auto;padding:0 .6rem}
table.scans,table.scans tbody,table.scans tr,table.scans td{display:block;width:100%}
table.scans thead{display:none}table.scans tr{border:1px solid var(--line);border-radius:6px;margin:.5rem 0;padding:.25rem .5rem;background:var(--panel)}
table.scans td{border:0;padding:.2rem 0}table.scans td.actions form{display:inline-flex;margin-right:.35rem}
form{flex-wrap:wrap}
}`);
