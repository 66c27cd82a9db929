import type { ListedScan } from "../../queue/history.js";
import type { DeliveryView } from "../../queue/types.js";
import { FORM_TOKEN_FIELD } from "../same-origin.js";
import { confirmedText } from "../views/elapsed.js";
import { escapeHtml } from "../views/html.js";
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

function actionForm(v: ViewContext, action: string, id: number, label: string): string {
  return (
    `<form method="post" action="${v.prefix}actions/${action}" class="action" data-action="${action}">` +
    `<input type="hidden" name="id" value="${id}"><input type="hidden" name="${FORM_TOKEN_FIELD}" value="${escapeHtml(v.formToken)}">` +
    `<button type="submit" name="do" value="${action}">${label}</button></form>`
  );
}

function delivery(d: DeliveryView, v: ViewContext): string {
  const retry =
    d.state === "pending" && d.attempts > 0
      ? ` retrying ${timeTag(d.dueAt, v.now)} after ${d.attempts} attempt${d.attempts === 1 ? "" : "s"}`
      : "";
  const error = d.lastError
    ? `<br><small class="error-text">${escapeHtml(d.lastError.length > ERROR_SHOWN ? `${d.lastError.slice(0, ERROR_SHOWN)}…` : d.lastError)}</small>`
    : "";
  const attempts = retry === "" && d.attempts > 0 ? ` (${d.attempts} attempt${d.attempts === 1 ? "" : "s"})` : "";
  const confirmed = d.confirmedAfterMs === null ? "" : ` <small class="confirmed-after">${confirmedText(d)}</small>`;
  return `<div data-target="${escapeHtml(d.target)}"><b>${escapeHtml(d.target)}</b>: <span class="state-${d.state}">${d.state}</span>${confirmed}${retry}${attempts}${error}</div>`;
}

function files(scan: ListedScan): string {
  if (scan.fileCount === 0) return "";
  const shown = scan.files
    .map(
      (f) =>
        `<li class="${f.seen ? "seen" : "unseen"}">${f.deleted ? "deleted: " : f.seen ? "seen: " : "waiting for: "}<code>${escapeHtml(f.path)}</code></li>`,
    )
    .join("");
  const more = scan.fileCount > scan.files.length ? `<li>… ${scan.fileCount - scan.files.length} more</li>` : "";
  return `<details><summary>${scan.fileCount} file${scan.fileCount === 1 ? "" : "s"}</summary><ul>${shown}${more}</ul></details>`;
}

function pendingState(scan: ListedScan, v: ViewContext): string {
  if (scan.state === "waiting-for-files") {
    const next = scan.nextFileCheckAt === null ? "" : `, next look ${timeTag(scan.nextFileCheckAt, v.now)}`;
    return `waiting for files (${scan.fileChecks} checks${next})`;
  }
  if (scan.state === "delivering") return "delivering";
  return scan.dueAt > v.now ? `debouncing until ${timeTag(scan.dueAt, v.now)}` : "due";
}

export function renderPending(scans: ListedScan[], v: ViewContext): string {
  if (scans.length === 0) return "<p>Nothing waiting.</p>";
  const rows = scans.map(
    (s) =>
      `<tr data-id="${s.id}" data-state="${s.state}"><td><code>${escapeHtml(s.folder)}</code>${files(s)}</td>` +
      `<td>${escapeHtml(s.source)} / ${escapeHtml(s.event)}<br><small>${s.requests} request${s.requests === 1 ? "" : "s"}, first ${timeTag(s.firstRequestedAt, v.now)}</small></td>` +
      `<td class="state-${s.state}">${pendingState(s, v)}</td><td>${s.deliveries.map((d) => delivery(d, v)).join("")}</td>` +
      `<td>${s.state === "delivering" ? "" : actionForm(v, "scan-now", s.id, "Scan now") + actionForm(v, "cancel", s.id, "Cancel")}</td></tr>`,
  );
  return `<table id="pending"><thead><tr><th>Folder</th><th>From</th><th>State</th><th>Targets</th><th></th></tr></thead><tbody>${rows.join("\n")}</tbody></table>`;
}

export function renderHistory(scans: ListedScan[], v: ViewContext): string {
  if (scans.length === 0) return "<p>No scans match.</p>";
  const rows = scans.map(
    (s) =>
      `<tr data-id="${s.id}" data-state="${s.state}"><td><code>${escapeHtml(s.folder)}</code>${files(s)}${s.detail ? `<br><small>${escapeHtml(s.detail)}</small>` : ""}</td>` +
      `<td>${escapeHtml(s.source)} / ${escapeHtml(s.event)}</td><td class="state-${s.state}">${s.state}</td>` +
      `<td>requested ${timeTag(s.firstRequestedAt, v.now)}<br>finished ${timeTag(s.finishedAt, v.now)}</td>` +
      `<td>${s.deliveries.map((d) => delivery(d, v)).join("")}</td>` +
      `<td>${s.state === "failed" || s.state === "unconfirmed" ? actionForm(v, "retry", s.id, "Retry") : ""}</td></tr>`,
  );
  return `<table id="history"><thead><tr><th>Folder</th><th>From</th><th>State</th><th>Times</th><th>Targets</th><th></th></tr></thead><tbody>${rows.join("\n")}</tbody></table>`;
}
