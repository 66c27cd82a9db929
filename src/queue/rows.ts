import type { OpenScanRow } from "./open-scan.js";
import type { FileRow } from "./scan-files.js";
import type { DeliveryState, FilesState, StoredScanState } from "./lifecycle.js";
import { reasonFor } from "./views/reasons.js";
import { actionsFor, shownState, STATE_WORDS, type ShownContext } from "./shown-state.js";
import type { DeliveryView, LibraryRef, QueuedScan, RequestOrigin, ScanFacts } from "./types.js";

export type { StoredScanState } from "./lifecycle.js";

/** A `scan_queue` row: what coalescing reads of it (OpenScanRow) and the rest. */
export interface ScanRow extends OpenScanRow {
  state: StoredScanState;
  finished_at: number | null;
  files_state: FilesState;
  file_checks: number;
  file_check_at: number;
  detail: string | null;
}

export interface DeliveryRow {
  id: number;
  scan_id: number;
  target: string;
  state: DeliveryState;
  due_at: number;
  retry_at: number;
  attempts: number;
  last_error: string | null;
  libraries: string | null;
  updated_at: number;
  detail: string | null;
  confirm: string | null;
}

export function toDeliveryView(row: DeliveryRow): DeliveryView {
  return {
    target: row.target,
    state: row.state,
    dueAt: row.due_at,
    attempts: row.attempts,
    lastError: row.last_error,
    libraries: parseLibraries(row.libraries),
    // While confirming, the detail is the driver's latest word on it.
    detail: row.state === "confirming" ? (row.detail ?? "waiting for confirmation") : row.detail,
    confirmedAfterMs: confirmedAfterOf(row.confirm),
    updatedAt: row.updated_at,
  };
}

/** The mergeable fields of a stored scan. */
export function factsOf(row: OpenScanRow): ScanFacts {
  return {
    folder: row.folder,
    priority: row.priority,
    requests: row.requests,
    source: row.source,
    event: row.event,
    firstRequestedAt: row.first_requested_at,
    lastRequestedAt: row.last_requested_at,
    dueAt: row.due_at,
  };
}

/** A stored scan as the queue shows it: its shown state, its reason and its actions, from its rows and `ctx`. */
export function toQueuedScan(
  row: ScanRow,
  deliveries: DeliveryRow[],
  files: FileRow[],
  origins: RequestOrigin[],
  ctx: ShownContext,
): QueuedScan {
  const waiting = row.files_state === "waiting" && (row.state === "open" || row.state === "closed");
  const state = shownState(row, deliveries, ctx);
  const scan = {
    id: row.id,
    ...factsOf(row),
    state,
    stateText: STATE_WORDS[state],
    finishedAt: row.finished_at,
    deliveries: deliveries.map(toDeliveryView),
    files: files.map((f) => ({ path: f.path, deleted: f.deletion === 1, seen: f.seen === 1 })),
    fileChecks: row.file_checks,
    nextFileCheckAt: waiting ? Math.max(row.file_check_at, row.due_at) : null,
    detail: row.detail,
    origins,
  };
  return { ...scan, reason: reasonFor(scan, ctx.holds, ctx.now), actions: actionsFor(state) };
}

/** The libraries column (JSON); null when unset or unreadable. */
export function parseLibraries(json: string | null): LibraryRef[] | null {
  if (json === null) return null;
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return null;
    return value.filter(isLibraryRef);
  } catch {
    return null;
  }
}

function isLibraryRef(value: unknown): value is LibraryRef {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.id === "string" && typeof record.title === "string";
}

function confirmedAfterOf(json: string | null): number | null {
  const value = (parseJson(json) as { confirmedAfterMs?: unknown } | undefined)?.confirmedAfterMs;
  return typeof value === "number" ? value : null;
}

function parseJson(json: string | null): unknown {
  if (json === null) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}
