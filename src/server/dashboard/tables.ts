import { html, joinHtml, type SafeHtml } from "../../lib/html.js";
import type { ListedScan } from "../../queue/history.js";
import type { DeliveryView } from "../../queue/types.js";
import { FORM_TOKEN_FIELD } from "../same-origin.js";
import { confirmedText } from "../views/elapsed.js";
import { timeTag } from "./time.js";

/** What every table needs: the clock, where actions post, and the form token. */
export interface ViewContext {
  now: number;
  /** Relative URL prefix of the dashboard's own routes (works under any proxy base path). */
  prefix: string;
  formToken: string;
}

// Longest error shown in a cell; the API carries the whole text.
const ERROR_SHOWN = 300;

function actionForm(v: ViewContext, action: string, id: number, label: string): SafeHtml {
  return html`<form method="post" action="${v.prefix}actions/${action}" class="action" data-action="${action}"><input type="hidden" name="id" value="${id}"><input type="hidden" name="${FORM_TOKEN_FIELD}" value="${v.formToken}"><button type="submit" name="do" value="${action}">${label}</button></form>`;
}

function delivery(d: DeliveryView, v: ViewContext): SafeHtml {
  const retry =
    d.state === "pending" && d.attempts > 0
      ? html` retrying ${timeTag(d.dueAt, v.now)} after ${d.attempts} attempt${d.attempts === 1 ? "" : "s"}`
      : "";
  const error = d.lastError ? html`<br><small class="error-text">${clip(d.lastError)}</small>` : "";
  const attempts = retry === "" && d.attempts > 0 ? ` (${d.attempts} attempt${d.attempts === 1 ? "" : "s"})` : "";
  const confirmed = d.confirmedAfterMs === null ? "" : html` <small class="confirmed-after">${confirmedText(d)}</small>`;
  return html`<div data-target="${d.target}"><b>${d.target}</b>: <span class="state-${d.state}">${d.state}</span>${confirmed}${retry}${attempts}${error}</div>`;
}

function files(scan: ListedScan): SafeHtml | "" {
  if (scan.fileCount === 0) return "";
  const shown = scan.files.map(
    (f) =>
      html`<li class="${f.seen ? "seen" : "unseen"}">${f.deleted ? "deleted: " : f.seen ? "seen: " : "waiting for: "}<code>${f.path}</code></li>`,
  );
  const more = scan.fileCount > scan.files.length && html`<li>… ${scan.fileCount - scan.files.length} more</li>`;
  return html`<details><summary>${scan.fileCount} file${scan.fileCount === 1 ? "" : "s"}</summary><ul>${shown}${more}</ul></details>`;
}

const ACTION_LABELS = { "scan-now": "Scan now", cancel: "Cancel", retry: "Retry" } as const;

/** The shown state in words, with its reason (src/queue/reasons.ts) under it. */
function stateCell(scan: ListedScan, v: ViewContext): SafeHtml {
  const reason = scan.reason && html`<br><small class="reason" data-reason="${scan.reason.code}">${clip(scan.reason.text)}</small>`;
  const when = scan.reason?.at != null && !isHistory(scan) && html` (${timeTag(scan.reason.at, v.now)})`;
  return html`<td class="state-${scan.state}">${scan.stateText}${when}${reason}</td>`;
}

function isHistory(scan: ListedScan): boolean {
  return scan.finishedAt !== null;
}

/** Only the actions that mean something in the scan's state (actionsFor). */
function actionsCell(scan: ListedScan, v: ViewContext): SafeHtml {
  return html`<td>${scan.actions.map((a) => actionForm(v, a, scan.id, ACTION_LABELS[a]))}</td>`;
}

function clip(text: string): string {
  return text.length > ERROR_SHOWN ? `${text.slice(0, ERROR_SHOWN)}…` : text;
}

export function renderPending(scans: ListedScan[], v: ViewContext): SafeHtml {
  if (scans.length === 0) return html`<p>Nothing waiting.</p>`;
  const rows = scans.map(
    (s) =>
      html`<tr data-id="${s.id}" data-state="${s.state}"><td><code>${s.folder}</code>${files(s)}</td><td>${s.source} / ${s.event}<br><small>${s.requests} request${s.requests === 1 ? "" : "s"}, first ${timeTag(s.firstRequestedAt, v.now)}</small></td>${stateCell(s, v)}<td>${s.deliveries.map((d) => delivery(d, v))}</td>${actionsCell(s, v)}</tr>`,
  );
  return html`<table id="pending"><thead><tr><th>Folder</th><th>From</th><th>State</th><th>Targets</th><th></th></tr></thead><tbody>${joinHtml(rows, "\n")}</tbody></table>`;
}

export function renderHistory(scans: ListedScan[], v: ViewContext): SafeHtml {
  if (scans.length === 0) return html`<p>No scans match.</p>`;
  const rows = scans.map(
    (s) =>
      html`<tr data-id="${s.id}" data-state="${s.state}"><td><code>${s.folder}</code>${files(s)}${s.detail && html`<br><small>${s.detail}</small>`}</td><td>${s.source} / ${s.event}</td>${stateCell(s, v)}<td>requested ${timeTag(s.firstRequestedAt, v.now)}<br>finished ${timeTag(s.finishedAt, v.now)}</td><td>${s.deliveries.map((d) => delivery(d, v))}</td>${actionsCell(s, v)}</tr>`,
  );
  return html`<table id="history"><thead><tr><th>Folder</th><th>From</th><th>State</th><th>Times</th><th>Targets</th><th></th></tr></thead><tbody>${joinHtml(rows, "\n")}</tbody></table>`;
}
