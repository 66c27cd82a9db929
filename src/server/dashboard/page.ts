import { FORM_TOKEN_FIELD } from "../same-origin.js";
import { SHOWN_STATES, STATE_WORDS } from "../../queue/shown-state.js";
import { html, joinHtml, type SafeHtml } from "../../lib/html.js";
import { page } from "../views/html.js";
import { renderActivity } from "./activity.js";
import type { PageInput } from "./page-input.js";
import { renderHealthHeader } from "./header.js";
import { historyCursorText, pendingCursorText, withParams } from "./query.js";
import { DASHBOARD_STYLE } from "./style.js";
import { renderHistory, renderPending } from "./tables.js";
import { timeTag } from "./time.js";
import { renderTools } from "./tools.js";

export type { PageInput } from "./page-input.js";

/** The parts that change: health, counts, activity, queue and history. The script swaps this element when the queue changes. */
export function renderLive(input: PageInput): string {
  return liveHtml(input).text;
}

/** The service's root (where /health and /metrics are) relative to the page, as `prefix` is to the dashboard's routes. */
function rootOf(prefix: string): string {
  return prefix === "./" ? "../" : "./";
}

function liveHtml({ deps, query, params, view }: PageInput): SafeHtml {
  const counts = deps.browser.counts();
  const pending = deps.browser.pending(query.limit, query.pendingAfter);
  const history = deps.browser.history(query.filter, query.limit, query.after);
  const countText = joinHtml(
    SHOWN_STATES.map(
      (state) => html`<span class="count state-${state}" data-count="${state}"><b>${counts[state]}</b> ${STATE_WORDS[state]}</span>`,
    ),
    " ",
  );
  const pendingNext =
    pending.next && html`<a href="${withParams(params, { pafter: pendingCursorText(pending.next) })}" id="pending-next">next page</a>`;
  const historyNext =
    history.next && html`<a href="${withParams(params, { after: historyCursorText(history.next) })}" id="history-next">next page</a>`;
  const filtered = Object.values(query.filter).some((v) => v !== undefined);
  return html`<div id="live" data-updated="${new Date(view.now).toISOString()}">
${renderHealthHeader(deps, rootOf(view.prefix))}
<section id="status"><h2>Queue at a glance</h2><p id="counts">${countText}</p><p class="updated"><small>updated ${timeTag(view.now, view.now)}</small></p></section>
<section id="queue"><h2>Queue</h2>${renderPending(pending.scans, view)}${query.pendingAfter && html` <a href="${withParams(params, { pafter: undefined })}">first page</a>`} ${pendingNext}</section>
<section id="finished"><h2>History${filtered && html` <small>(filtered: <a href="?">show all</a>)</small>`}</h2>${renderHistory(history.scans, view)}${query.after && html` <a href="${withParams(params, { after: undefined })}">first page</a>`} ${historyNext}</section>
${renderActivity(deps, view.now)}
</div>`;
}

function done(params: URLSearchParams): SafeHtml | "" {
  const message = params.get("done");
  return message ? html`<p class="notice" id="action-result">${message.slice(0, 300)}</p>` : "";
}

export function renderDashboard(input: PageInput): string {
  const { view } = input;
  const token = html`<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${view.formToken}">`;
  const logout =
    input.user &&
    html`<form method="post" action="${view.prefix}logout" id="logout">${token}<span>logged in as ${input.user}</span> <button type="submit">Log out</button></form>`;
  return page(
    "scanarr — queue, history and manual scan",
    html`<div class="top"><h1>scanarr</h1>${logout}</div>
${done(input.params)}
${liveHtml(input)}
${renderTools(input)}
<script src="${view.prefix}dashboard.js" defer></script>`,
    DASHBOARD_STYLE,
  );
}
