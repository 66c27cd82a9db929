import type { PathTrace } from "../../paths/trace.js";
import { FORM_TOKEN_FIELD } from "../same-origin.js";
import { SHOWN_STATES, STATE_WORDS } from "../../queue/shown-state.js";
import { html, joinHtml, type SafeHtml } from "../../lib/html.js";
import { page } from "../views/html.js";
import type { DashboardDeps } from "./deps.js";
import { type DashboardQuery, historyCursorText, pendingCursorText, withParams } from "./query.js";
import { renderHistory, renderPending, type ViewContext } from "./tables.js";
import { timeTag } from "./time.js";

export interface PageInput {
  deps: DashboardDeps;
  query: DashboardQuery;
  params: URLSearchParams;
  view: ViewContext;
  allowManual: boolean;
  trace?: PathTrace;
  /** Who is logged in, when the dashboard has a login: the page offers to log out. */
  user?: string;
}

/** The parts that change: status, queue and history. The script swaps this element when the queue changes. */
export function renderLive(input: PageInput): string {
  return liveHtml(input).text;
}

function liveHtml({ deps, query, params, view }: PageInput): SafeHtml {
  const counts = deps.browser.counts();
  const pending = deps.browser.pending(query.limit, query.pendingAfter);
  const history = deps.browser.history(query.filter, query.limit, query.after);
  const status = deps.status();
  const targets = Object.entries(status.targets).map(
    ([name, t]) =>
      html`<li data-target="${name}"><b>${name}</b>: <span class="state-${t.state}">${t.state}</span>${t.failures > 0 && `, ${t.failures} failures in a row`}</li>`,
  );
  const countText = joinHtml(
    SHOWN_STATES.map((state) => html`<span data-count="${state}">${STATE_WORDS[state]}: ${counts[state]}</span>`),
    " · ",
  );
  const pendingNext =
    pending.next && html`<a href="${withParams(params, { pafter: pendingCursorText(pending.next) })}" id="pending-next">next page</a>`;
  const historyNext =
    history.next && html`<a href="${withParams(params, { after: historyCursorText(history.next) })}" id="history-next">next page</a>`;
  return html`<div id="live" data-updated="${new Date(view.now).toISOString()}">
<section id="status"><h2>At a glance</h2><p id="counts">${countText}</p><ul id="targets">${targets.length > 0 ? targets : html`<li>no target</li>`}</ul>
${status.drive !== undefined && html`<p id="drive">drive monitor: <code>${JSON.stringify(status.drive)}</code></p>`}
<p><small>updated ${timeTag(view.now, view.now)}</small></p></section>
<section><h2>Queue</h2>${renderPending(pending.scans, view)}${query.pendingAfter && html` <a href="${withParams(params, { pafter: undefined })}">first page</a>`} ${pendingNext}</section>
<section><h2>History</h2>${renderHistory(history.scans, view)}${query.after && html` <a href="${withParams(params, { after: undefined })}">first page</a>`} ${historyNext}</section>
</div>`;
}

function filterForm(input: PageInput): SafeHtml {
  const { filter } = input.query;
  const option = (value: string, current: string | undefined, label = value) =>
    html`<option value="${value}"${value === (current ?? "") && html` selected`}>${label}</option>`;
  const states = ["", "done", "unconfirmed", "failed", "cancelled"].map((s) => option(s, filter.state, s || "any state"));
  const sources = ["", "sonarr", "radarr", "lidarr", "readarr", "manual", "watch", "drive"].map((s) =>
    option(s, filter.source, s || "any source"),
  );
  const targets = ["", ...input.deps.targetNames()].map((s) => option(s, filter.target, s || "any target"));
  return html`<form method="get" action="" id="filter"><select name="state">${states}</select><select name="source">${sources}</select>
<select name="target">${targets}</select><input type="text" name="q" placeholder="folder contains" value="${filter.text ?? ""}"><button type="submit">Filter history</button></form>`;
}

function traceResult(trace: PathTrace | undefined): SafeHtml | "" {
  if (!trace) return "";
  const lines = [`input: ${trace.input}`];
  if (trace.rewrite)
    lines.push(`rewritten by ${trace.rewrite.rule} (${trace.rewrite.from} → ${trace.rewrite.to}): ${trace.rewrite.result}`);
  if (trace.error) lines.push(`cannot be scanned: ${trace.error}`);
  if (trace.mapping) lines.push(`mapped by ${trace.mapping.key} → ${trace.mapping.prefix}`);
  if (trace.serverPath) lines.push(`media-server path: ${trace.serverPath}`);
  if (trace.ignoredBy) lines.push(`ignored by SERVER_IGNORE_LIST entry ${trace.ignoredBy}`);
  if (trace.filteredBy) lines.push(`not scanned: ${trace.filteredBy}`);
  if (trace.folder) lines.push(`folder to scan: ${trace.folder}${trace.kind ? ` (${trace.kind.why})` : ""}`);
  for (const t of trace.targets) {
    if (t.rewrite) lines.push(`${t.target}: rewritten by ${t.rewrite.rule} (${t.rewrite.from} → ${t.rewrite.to})`);
    lines.push(
      t.library
        ? `${t.target}: ${t.path} → library ${t.library.title} (${t.library.location})`
        : `${t.target}: ${t.path} → not scanned: ${t.why}`,
    );
  }
  return html`<pre id="trace">${lines.join("\n")}</pre>`;
}

function done(params: URLSearchParams): SafeHtml | "" {
  const message = params.get("done");
  return message ? html`<p class="notice" id="action-result">${message.slice(0, 300)}</p>` : "";
}

export function renderDashboard(input: PageInput): string {
  const { view } = input;
  const token = html`<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${view.formToken}">`;
  const manual = input.allowManual
    ? html`<form method="post" action="" id="manual"><input type="hidden" name="eventType" value="Manual">${token}
<label for="filepath" hidden>Path to scan</label><input type="text" id="filepath" name="filepath" required placeholder="/data/Movies/Movie Name (2010)/ — a media-server, mount or drive path">
<button type="submit" id="submit">Scan</button></form><p>A file is scanned through its folder. Paths are rewritten by SERVER_PATH_MAPPINGS.</p>`
    : html`<p>Manual scans are off (SERVER_ALLOW_MANUAL_SCAN).</p>`;
  const logout =
    input.user &&
    html`<form method="post" action="${view.prefix}logout" id="logout">${token}<span>logged in as ${input.user}</span> <button type="submit">Log out</button></form>`;
  return page(
    "scanarr — manual scan and queue",
    html`<h1>scanarr — manual scan and queue</h1>
${logout}${done(input.params)}${manual}
<form method="get" action="" id="tester"><label for="trace-path" hidden>Path to trace</label><input type="text" id="trace-path" name="trace" placeholder="path to trace, as scanarr map does" value="${input.trace?.input ?? ""}"><button type="submit">Trace</button></form>
${traceResult(input.trace)}
${filterForm(input)}
${liveHtml(input)}
<form method="post" action="${view.prefix}actions/clear-history" id="clear" class="action" data-action="clear-history">${token}
<label>Clear history older than <input type="number" name="days" min="1" step="1" value="30" required style="width:5rem"> days</label> <button type="submit">Clear</button></form>
<script src="${view.prefix}dashboard.js" defer></script>`,
  );
}
