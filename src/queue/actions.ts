import type { Database, Statement } from "better-sqlite3";
import { allows, SCAN, type StoredScanState } from "./lifecycle.js";
import { isLive } from "./shown-state.js";

/** What an action did: the scan's stored state after it, or why nothing changed. */
export type ActionResult = { ok: true; id: number } | { ok: false; status: 404 | 409; reason: string };

/**
 * The dashboard's changes to one scan (ScanQueue.scanNow, retry, cancel and
 * clearHistory run them, each in one transaction, and tell their event).
 */
export function prepareActionStatements(db: Database) {
  const p = <P extends unknown[] = unknown[]>(sql: string): Statement<P> => db.prepare<P>(sql);
  return {
    stateOf: p<[number]>("SELECT state FROM scan_queue WHERE id = ?"),
    delivering: p<[number]>("SELECT COUNT(*) AS n FROM scan_delivery WHERE scan_id = ? AND state IN ('delivering', 'confirming')"),
    dueNow: p<[{ now: number; id: number }]>(
      "UPDATE scan_queue SET due_at = @now, files_state = CASE files_state WHEN 'waiting' THEN 'ready' ELSE files_state END WHERE id = @id",
    ),
    deliveriesNow: p<[{ now: number; id: number }]>(
      "UPDATE scan_delivery SET state = 'pending', due_at = @now, retry_at = 0, updated_at = @now WHERE scan_id = @id AND state IN ('pending', 'waiting')",
    ),
    retryDeliveries: p<[{ now: number; id: number }]>(
      `UPDATE scan_delivery SET state = 'pending', due_at = @now, retry_at = 0, owner = NULL, lease_until = NULL, updated_at = @now
       WHERE scan_id = @id AND state IN ('failed', 'unconfirmed')`,
    ),
    reopen: p<[number]>("UPDATE scan_queue SET state = 'closed', finished_at = NULL WHERE id = ? AND state IN ('failed', 'unconfirmed')"),
    cancelDeliveries: p<[{ now: number; id: number }]>(
      "UPDATE scan_delivery SET state = 'cancelled', last_error = 'cancelled from the dashboard', updated_at = @now WHERE scan_id = @id AND state IN ('pending', 'waiting')",
    ),
    cancelScan: p<[{ now: number; id: number }]>(
      "UPDATE scan_queue SET state = 'cancelled', finished_at = @now WHERE id = @id AND state IN ('open', 'closed')",
    ),
    clearDeliveries: p<[number]>(
      "DELETE FROM scan_delivery WHERE scan_id IN (SELECT id FROM scan_queue WHERE finished_at IS NOT NULL AND finished_at < ?)",
    ),
    clearFiles: p<[number]>(
      "DELETE FROM scan_file WHERE scan_id IN (SELECT id FROM scan_queue WHERE finished_at IS NOT NULL AND finished_at < ?)",
    ),
    clearScans: p<[number]>("DELETE FROM scan_queue WHERE finished_at IS NOT NULL AND finished_at < ? AND state NOT IN ('open', 'closed')"),
  };
}

export type ActionStatements = ReturnType<typeof prepareActionStatements>;

function stateOf(st: ActionStatements, id: number): StoredScanState | undefined {
  return (st.stateOf.get(id) as { state: StoredScanState } | undefined)?.state;
}

const missing = (id: number): ActionResult => ({ ok: false, status: 404, reason: `no scan ${id} in the queue or its history` });

/** Makes a waiting scan due now: skips the debounce, the backoff and the wait for its files. */
export function scanNow(st: ActionStatements, id: number, now: number): ActionResult {
  const state = stateOf(st, id);
  if (state === undefined) return missing(id);
  if (!isLive(state)) return { ok: false, status: 409, reason: `scan ${id} is ${state}, not waiting` };
  st.dueNow.run({ now, id });
  st.deliveriesNow.run({ now, id });
  return { ok: true, id };
}

/** Sends a failed or unconfirmed scan again to the targets it failed on. */
export function retryScan(st: ActionStatements, id: number, now: number): ActionResult {
  const state = stateOf(st, id);
  if (state === undefined) return missing(id);
  if (!allows(SCAN.retry, state))
    return { ok: false, status: 409, reason: `scan ${id} is ${state}; only failed or unconfirmed scans are retried` };
  if (st.retryDeliveries.run({ now, id }).changes === 0)
    return { ok: false, status: 409, reason: `scan ${id} has no failed or unconfirmed delivery` };
  st.reopen.run(id);
  return { ok: true, id };
}

/** Cancels a scan that has not started delivering; deliveries already done stay done. */
export function cancelScan(st: ActionStatements, id: number, now: number): ActionResult {
  const state = stateOf(st, id);
  if (state === undefined) return missing(id);
  if (!allows(SCAN.cancel, state)) return { ok: false, status: 409, reason: `scan ${id} is ${state}; only waiting scans are cancelled` };
  if ((st.delivering.get(id) as { n: number }).n > 0) return { ok: false, status: 409, reason: `scan ${id} is being delivered now` };
  st.cancelDeliveries.run({ now, id });
  st.cancelScan.run({ now, id });
  return { ok: true, id };
}

/** Deletes finished scans older than `cutoff` (epoch ms); returns how many. */
export function clearHistory(st: ActionStatements, cutoff: number): number {
  st.clearDeliveries.run(cutoff);
  st.clearFiles.run(cutoff);
  return st.clearScans.run(cutoff).changes;
}
