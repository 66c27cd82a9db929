import { factsOf, parseLibraries, type DeliveryRow, type ScanRow } from "../rows.js";
import type { FileRow } from "../scan-files.js";
import { actionsFor, shownState, STATE_WORDS, type ShownContext } from "../shown-state.js";
import type { DeliveryView, QueuedScan, RequestOrigin } from "../types.js";
import { reasonFor } from "./reasons.js";

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
