import type { QueuedScan } from "../../queue/types.js";
import { FORM_TOKEN_FIELD } from "../same-origin.js";
import { confirmedText } from "./elapsed.js";
import { html, joinHtml, type SafeHtml } from "../../lib/html.js";
import { page } from "./html.js";

/** Longest error text shown per scan; the full text is in /api/queue and the log. */
const ERROR_SHOWN = 300;

/**
 * The manual scan page: a path field, submit, and the latest scans with their
 * state. The form posts to this same address, so no new address (none with
 * the pass) enters the browser's history, and carries `formToken` to prove it
 * came from this page.
 */
export function renderManualPage(recent: QueuedScan[], now: number, formToken: string): string {
  const rows = recent.map((scan) => [
    html`<tr><td><code>${scan.folder}</code></td><td>${scan.source} / ${scan.event}</td>`,
    html`<td class="state-${scan.state}" data-state="${scan.state}">${scan.stateText}${confirmedNote(scan)}${reasonNote(scan)}</td><td>${ago(now, scan.lastRequestedAt)}</td></tr>`,
  ]);
  return page(
    "scanarr — manual scan",
    html`<h1>scanarr — manual scan</h1>
<form method="post" action="">
  <input type="hidden" name="eventType" value="Manual">
  <input type="hidden" name="${FORM_TOKEN_FIELD}" value="${formToken}">
  <label for="filepath" hidden>Path to scan</label>
  <input type="text" id="filepath" name="filepath" required placeholder="/data/Movies/Movie Name (2010)/ — a media-server, mount or drive path">
  <button type="submit" id="submit">Scan</button>
</form>
<p>A file is scanned through its folder. Paths are rewritten by SERVER_PATH_MAPPINGS.</p>
<h2>Latest scans</h2>
${recent.length === 0 ? html`<p>No scans yet.</p>` : html`<table id="recent"><thead><tr><th>Folder</th><th>From</th><th>State</th><th>Last request</th></tr></thead><tbody>\n${joinHtml(rows, "\n")}\n</tbody></table>`}`,
  );
}

/** Why the scan waits or how it ended (src/queue/views/reasons.ts), cut short; the full text is in /api/queue. */
function reasonNote(scan: QueuedScan): SafeHtml | "" {
  const text = scan.reason?.text;
  if (!text) return "";
  const shown = text.length > ERROR_SHOWN ? `${text.slice(0, ERROR_SHOWN)}…` : text;
  return html`<br><small class="reason">${shown}</small>`;
}

/** How long Plex took to confirm, per confirmed delivery (named when the scan went to several targets). */
function confirmedNote(scan: QueuedScan): SafeHtml | "" {
  const confirmed = scan.deliveries.filter((d) => d.confirmedAfterMs !== null);
  if (confirmed.length === 0) return "";
  const named = scan.deliveries.length > 1;
  const parts = confirmed.map((d) => `${named ? `${d.target}: ` : ""}${confirmedText(d)}`);
  return html`<br><small class="confirmed-after">${parts.join("; ")}</small>`;
}

function ago(now: number, then: number): string {
  return `${duration(now - then)} ago`;
}

function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}
