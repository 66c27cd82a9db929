import { html, joinHtml, type SafeHtml } from "../../lib/html.js";
import type { ListedScan } from "../../queue/views/history.js";
import type { DeliveryView, ScanAction, ScanReason, ScanState } from "../../queue/types.js";
import { FORM_TOKEN_FIELD } from "../same-origin.js";
import { confirmedText } from "../views/elapsed.js";
import { pathText } from "../views/path-text.js";
import { timeTag } from "./time.js";

/** What every table needs: the clock, where actions post, and the form token. */
export interface ViewContext {
  now: number;
  /** Relative URL prefix of the dashboard's own routes (works under any proxy base path). */
  prefix: string;
  formToken: string;
}

/** How one scan reads on the page. */
export interface ScanView {
  /** The shown state (src/queue/shown-state.ts): the row's `data-state`. */
  state: ScanState;
  /** The state in words, with the time of its fact while the scan waits ("debouncing (in 10 min)"). */
  label: SafeHtml;
  reason: ScanReason | null;
  actions: readonly ScanAction[];
}

const ACTION_LABELS: Record<ScanAction, string> = { "scan-now": "Scan now", cancel: "Cancel", retry: "Retry" };
// Longest error or reason shown in a cell; the API carries the whole text.
const ERROR_SHOWN = 300;
// Delivery states whose last error still says something (a confirming or done delivery's is history).
const ERROR_STATES = new Set(["pending", "waiting", "failed", "unconfirmed", "skipped"]);

/**
 * The one place a scan's row is decided, from what the queue says of it:
 * its shown state in words, why (src/queue/views/reasons.ts), and the actions
 * that mean something in that state (actionsFor).
 */
export function viewScan(scan: ListedScan, v: ViewContext): ScanView {
  const at = scan.reason?.at;
  const when = at !== null && at !== undefined && scan.finishedAt === null && html` (${timeTag(at, v.now)})`;
  return { state: scan.state, label: html`${scan.stateText}${when}`, reason: scan.reason, actions: scan.actions };
}

function clip(text: string): string {
  return text.length > ERROR_SHOWN ? `${text.slice(0, ERROR_SHOWN)}…` : text;
}

/** "retrying in 30 s", or once that time has passed (the target still down, the mount gone): "retry due". */
function retryText(d: Pick<DeliveryView, "dueAt">, v: ViewContext): SafeHtml {
  return d.dueAt > v.now ? html`retrying ${timeTag(d.dueAt, v.now)}` : html`retry due ${timeTag(d.dueAt, v.now)}`;
}

function actionForm(v: ViewContext, action: ScanAction, id: number): SafeHtml {
  return html`<form method="post" action="${v.prefix}actions/${action}" class="action" data-action="${action}"><input type="hidden" name="id" value="${id}"><input type="hidden" name="${FORM_TOKEN_FIELD}" value="${v.formToken}"><button type="submit" name="do" value="${action}">${ACTION_LABELS[action]}</button></form>`;
}

function delivery(d: DeliveryView, v: ViewContext): SafeHtml {
  const retry =
    d.state === "pending" && d.attempts > 0 ? html` ${retryText(d, v)} after ${d.attempts} attempt${d.attempts === 1 ? "" : "s"}` : "";
  // A target with no library for the folder skipped it: a fact, said in the reasons' grey, not a failure's red.
  const skipped = d.state === "skipped";
  const error =
    d.lastError && ERROR_STATES.has(d.state)
      ? html`<br><small class="${skipped ? "reason" : "error-text"}">${clip(d.lastError)}</small>`
      : "";
  const attempts = retry === "" && d.attempts > 0 && !skipped ? ` (${d.attempts} attempt${d.attempts === 1 ? "" : "s"})` : "";
  const confirmed = d.confirmedAfterMs === null ? "" : html` <small class="confirmed-after">${confirmedText(d)}</small>`;
  return html`<div data-target="${d.target}"><b>${d.target}</b>: <span class="state-${d.state}">${d.state}</span>${confirmed}${retry}${attempts}${error}</div>`;
}

function files(scan: ListedScan): SafeHtml | "" {
  if (scan.fileCount === 0) return "";
  const shown = scan.files.map(
    (f) =>
      html`<li class="${f.seen ? "seen" : "unseen"}">${f.deleted ? "deleted: " : f.seen ? "seen: " : "waiting for: "}${pathText(f.path)}</li>`,
  );
  const more = scan.fileCount > scan.files.length && html`<li>… ${scan.fileCount - scan.files.length} more</li>`;
  return html`<details><summary>${scan.fileCount} file${scan.fileCount === 1 ? "" : "s"}</summary><ul>${shown}${more}</ul></details>`;
}

function folderCell(s: ListedScan, when: SafeHtml): SafeHtml {
  return html`<td class="folder">${pathText(s.folder)}<br><small>${s.source} / ${s.event} · ${s.requests} request${s.requests === 1 ? "" : "s"} · ${when}</small>${files(s)}</td>`;
}

function row(s: ListedScan, v: ViewContext, when: SafeHtml): SafeHtml {
  const view = viewScan(s, v);
  const reason = view.reason && html`<br><small class="reason" data-reason="${view.reason.code}">${clip(view.reason.text)}</small>`;
  return html`<tr data-id="${s.id}" data-state="${view.state}">${folderCell(s, when)}<td class="state state-${view.state}"><span class="label">${view.label}</span>${reason}</td><td class="targets">${s.deliveries.map((d) => delivery(d, v))}</td><td class="actions">${view.actions.map((a) => actionForm(v, a, s.id))}</td></tr>`;
}

const HEAD = html`<thead><tr><th>Folder</th><th>State</th><th>Targets</th><th><span class="visually-hidden">Actions</span></th></tr></thead>`;

export function renderPending(scans: ListedScan[], v: ViewContext): SafeHtml {
  if (scans.length === 0) return html`<p>Nothing waiting.</p>`;
  const rows = scans.map((s) => row(s, v, html`first ${timeTag(s.firstRequestedAt, v.now)}`));
  return html`<table id="pending" class="scans">${HEAD}<tbody>${joinHtml(rows, "\n")}</tbody></table>`;
}

export function renderHistory(scans: ListedScan[], v: ViewContext): SafeHtml {
  if (scans.length === 0) return html`<p>No scans match.</p>`;
  const rows = scans.map((s) => row(s, v, html`requested ${timeTag(s.firstRequestedAt, v.now)}, finished ${timeTag(s.finishedAt, v.now)}`));
  return html`<table id="history" class="scans">${HEAD}<tbody>${joinHtml(rows, "\n")}</tbody></table>`;
}
