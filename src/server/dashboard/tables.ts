import { html, joinHtml, type SafeHtml } from "../../lib/html.js";
import type { ListedScan } from "../../queue/history.js";
import type { DeliveryView } from "../../queue/types.js";
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

export type RowAction = "scan-now" | "cancel" | "retry";

/**
 * A listed scan plus what the queue may say about it beyond its state: why
 * it waits (`reason`) and which actions mean something for it (`actions`).
 * Both are optional: without them the row falls back to what it can tell
 * from the state and the deliveries.
 */
export type RowScan = ListedScan & { reason?: string | null; actions?: readonly RowAction[] };

/** How one scan reads on the page. */
export interface ScanView {
  /** The state in a word or two ("debouncing", "retrying", "failed"): the row's `data-shown`. */
  shown: string;
  /** The state's line, with its time ("debouncing until in 10 min"). */
  label: SafeHtml | string;
  reason: string | undefined;
  actions: readonly RowAction[];
}

const ACTION_LABELS: Record<RowAction, string> = { "scan-now": "Scan now", cancel: "Cancel", retry: "Retry" };
// Longest error shown in a cell; the API carries the whole text.
const ERROR_SHOWN = 300;
// Delivery states whose last error still says something (a confirming or done delivery's is history).
const ERROR_STATES = new Set(["pending", "waiting", "failed", "unconfirmed", "skipped"]);

/** The one place a scan's row is decided: its state in words, its reason, its actions. */
export function viewScan(scan: RowScan, v: ViewContext): ScanView {
  const own = { reason: scan.reason ?? undefined };
  const live = scan.state === "pending" || scan.state === "waiting-for-files";
  const actions =
    scan.actions ??
    (live ? (["scan-now", "cancel"] as const) : scan.state === "failed" || scan.state === "unconfirmed" ? (["retry"] as const) : []);
  if (scan.state === "waiting-for-files") {
    const next = scan.nextFileCheckAt !== null && html`, next look ${timeTag(scan.nextFileCheckAt, v.now)}`;
    return { shown: "waiting for files", label: html`waiting for files (${scan.fileChecks} checks${next})`, ...own, actions };
  }
  if (scan.state === "pending") {
    const retrying = scan.deliveries.find((d) => d.state === "pending" && d.attempts > 0);
    if (retrying)
      return {
        shown: "retrying",
        label: retryText(retrying, v),
        reason: own.reason ?? retrying.lastError ?? undefined,
        actions,
      };
    if (scan.dueAt > v.now) return { shown: "debouncing", label: html`debouncing until ${timeTag(scan.dueAt, v.now)}`, ...own, actions };
    return { shown: "due", label: "due, not sent yet", ...own, actions };
  }
  if (scan.state === "confirming") {
    const detail = scan.deliveries.find((d) => d.state === "confirming")?.detail ?? undefined;
    return { shown: "confirming", label: "confirming", reason: own.reason ?? detail, actions };
  }
  return { shown: scan.state, label: scan.state, reason: own.reason ?? scan.detail ?? undefined, actions };
}

/** "retrying in 30 s", or once that time has passed (the target still down, the mount gone): "retry due". */
function retryText(d: Pick<DeliveryView, "dueAt">, v: ViewContext): SafeHtml {
  return d.dueAt > v.now ? html`retrying ${timeTag(d.dueAt, v.now)}` : html`retry due ${timeTag(d.dueAt, v.now)}`;
}

function actionForm(v: ViewContext, action: RowAction, id: number): SafeHtml {
  return html`<form method="post" action="${v.prefix}actions/${action}" class="action" data-action="${action}"><input type="hidden" name="id" value="${id}"><input type="hidden" name="${FORM_TOKEN_FIELD}" value="${v.formToken}"><button type="submit" name="do" value="${action}">${ACTION_LABELS[action]}</button></form>`;
}

function delivery(d: DeliveryView, v: ViewContext): SafeHtml {
  const retry =
    d.state === "pending" && d.attempts > 0 ? html` ${retryText(d, v)} after ${d.attempts} attempt${d.attempts === 1 ? "" : "s"}` : "";
  const error =
    d.lastError && ERROR_STATES.has(d.state)
      ? html`<br><small class="error-text">${d.lastError.length > ERROR_SHOWN ? `${d.lastError.slice(0, ERROR_SHOWN)}…` : d.lastError}</small>`
      : "";
  const attempts = retry === "" && d.attempts > 0 ? ` (${d.attempts} attempt${d.attempts === 1 ? "" : "s"})` : "";
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

function folderCell(s: RowScan, when: SafeHtml): SafeHtml {
  return html`<td class="folder">${pathText(s.folder)}<br><small>${s.source} / ${s.event} · ${s.requests} request${s.requests === 1 ? "" : "s"} · ${when}</small>${files(s)}</td>`;
}

function row(s: RowScan, v: ViewContext, when: SafeHtml): SafeHtml {
  const view = viewScan(s, v);
  const reason =
    view.reason &&
    html`<br><small class="reason">${view.reason.length > ERROR_SHOWN ? `${view.reason.slice(0, ERROR_SHOWN)}…` : view.reason}</small>`;
  return html`<tr data-id="${s.id}" data-state="${s.state}" data-shown="${view.shown}">${folderCell(s, when)}<td class="state state-${s.state}" data-label="State"><span class="label">${view.label}</span>${reason}</td><td class="targets" data-label="Targets">${s.deliveries.map((d) => delivery(d, v))}</td><td class="actions">${view.actions.map((a) => actionForm(v, a, s.id))}</td></tr>`;
}

const HEAD = html`<thead><tr><th>Folder</th><th>State</th><th>Targets</th><th><span class="visually-hidden">Actions</span></th></tr></thead>`;

export function renderPending(scans: RowScan[], v: ViewContext): SafeHtml {
  if (scans.length === 0) return html`<p>Nothing waiting.</p>`;
  const rows = scans.map((s) => row(s, v, html`first ${timeTag(s.firstRequestedAt, v.now)}`));
  return html`<table id="pending" class="scans">${HEAD}<tbody>${joinHtml(rows, "\n")}</tbody></table>`;
}

export function renderHistory(scans: RowScan[], v: ViewContext): SafeHtml {
  if (scans.length === 0) return html`<p>No scans match.</p>`;
  const rows = scans.map((s) => row(s, v, html`requested ${timeTag(s.firstRequestedAt, v.now)}, finished ${timeTag(s.finishedAt, v.now)}`));
  return html`<table id="history" class="scans">${HEAD}<tbody>${joinHtml(rows, "\n")}</tbody></table>`;
}
