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
  const error = d.lastError
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
      html`<li class="${f.seen ? "seen" : "unseen"}">${f.deleted ? "deleted: " : f.seen ? "seen: " : "waiting for: "}<code>${f.path}</code></li>`,
  );
  const more = scan.fileCount > scan.files.length && html`<li>… ${scan.fileCount - scan.files.length} more</li>`;
  return html`<details><summary>${scan.fileCount} file${scan.fileCount === 1 ? "" : "s"}</summary><ul>${shown}${more}</ul></details>`;
}

function pendingState(scan: ListedScan, v: ViewContext): SafeHtml | string {
  if (scan.state === "waiting-for-files") {
    const next = scan.nextFileCheckAt !== null && html`, next look ${timeTag(scan.nextFileCheckAt, v.now)}`;
    return html`waiting for files (${scan.fileChecks} checks${next})`;
  }
  if (scan.state === "delivering") return "delivering";
  return scan.dueAt > v.now ? html`debouncing until ${timeTag(scan.dueAt, v.now)}` : "due";
}

export function renderPending(scans: ListedScan[], v: ViewContext): SafeHtml {
  if (scans.length === 0) return html`<p>Nothing waiting.</p>`;
  const rows = scans.map(
    (s) =>
      html`<tr data-id="${s.id}" data-state="${s.state}"><td><code>${s.folder}</code>${files(s)}</td><td>${s.source} / ${s.event}<br><small>${s.requests} request${s.requests === 1 ? "" : "s"}, first ${timeTag(s.firstRequestedAt, v.now)}</small></td><td class="state-${s.state}">${pendingState(s, v)}</td><td>${s.deliveries.map((d) => delivery(d, v))}</td><td>${s.state !== "delivering" && [actionForm(v, "scan-now", s.id, "Scan now"), actionForm(v, "cancel", s.id, "Cancel")]}</td></tr>`,
  );
  return html`<table id="pending"><thead><tr><th>Folder</th><th>From</th><th>State</th><th>Targets</th><th></th></tr></thead><tbody>${joinHtml(rows, "\n")}</tbody></table>`;
}

export function renderHistory(scans: ListedScan[], v: ViewContext): SafeHtml {
  if (scans.length === 0) return html`<p>No scans match.</p>`;
  const rows = scans.map(
    (s) =>
      html`<tr data-id="${s.id}" data-state="${s.state}"><td><code>${s.folder}</code>${files(s)}${s.detail && html`<br><small>${s.detail}</small>`}</td><td>${s.source} / ${s.event}</td><td class="state-${s.state}">${s.state}</td><td>requested ${timeTag(s.firstRequestedAt, v.now)}<br>finished ${timeTag(s.finishedAt, v.now)}</td><td>${s.deliveries.map((d) => delivery(d, v))}</td><td>${(s.state === "failed" || s.state === "unconfirmed") && actionForm(v, "retry", s.id, "Retry")}</td></tr>`,
  );
  return html`<table id="history"><thead><tr><th>Folder</th><th>From</th><th>State</th><th>Times</th><th>Targets</th><th></th></tr></thead><tbody>${joinHtml(rows, "\n")}</tbody></table>`;
}
