import type { Database, Statement } from "better-sqlite3";
import { inTransaction } from "./database.js";
import type { Clock } from "../lib/clock.js";

/** What an action did: the scan's stored state after it, or why nothing changed. */
export type ActionResult = { ok: true; id: number } | { ok: false; status: 404 | 409; reason: string };

export interface QueueActions {
  /** Makes a waiting scan due now: skips the debounce, the backoff and the wait for its files. */
  scanNow(id: number): ActionResult;
  /** Sends a failed or unconfirmed scan again to the targets it failed on. */
  retry(id: number): ActionResult;
  /** Cancels a scan that has not started delivering; deliveries already done stay done. */
  cancel(id: number): ActionResult;
  /** Deletes finished scans older than `cutoff` (epoch ms); returns how many. */
  clearHistory(cutoff: number): number;
}

function prepare(db: Database) {
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
    reopen: p<[number]>("UPDATE scan_queue SET state = 'closed', finished_at = NULL WHERE id = ?"),
    cancelDeliveries: p<[{ now: number; id: number }]>(
      "UPDATE scan_delivery SET state = 'cancelled', last_error = 'cancelled from the dashboard', updated_at = @now WHERE scan_id = @id AND state IN ('pending', 'waiting')",
    ),
    cancelScan: p<[{ now: number; id: number }]>("UPDATE scan_queue SET state = 'cancelled', finished_at = @now WHERE id = @id"),
    clearDeliveries: p<[number]>(
      "DELETE FROM scan_delivery WHERE scan_id IN (SELECT id FROM scan_queue WHERE finished_at IS NOT NULL AND finished_at < ?)",
    ),
    clearFiles: p<[number]>(
      "DELETE FROM scan_file WHERE scan_id IN (SELECT id FROM scan_queue WHERE finished_at IS NOT NULL AND finished_at < ?)",
    ),
    clearScans: p<[number]>("DELETE FROM scan_queue WHERE finished_at IS NOT NULL AND finished_at < ? AND state NOT IN ('open', 'closed')"),
  };
}

const OPEN = new Set(["open", "closed"]);

/**
 * The dashboard's changes to the queue, each one transaction. The scheduler
 * is not told here: the caller wakes it after a change (scan now, retry).
 */
export function createQueueActions(db: Database, clock: Clock): QueueActions {
  const st = prepare(db);
  const tx = <T>(fn: () => T): T => inTransaction(db, fn);
  const stateOf = (id: number) => (st.stateOf.get(id) as { state: string } | undefined)?.state;
  const missing = (id: number): ActionResult => ({ ok: false, status: 404, reason: `no scan ${id} in the queue or its history` });

  return {
    scanNow: (id) =>
      tx(() => {
        const state = stateOf(id);
        if (state === undefined) return missing(id);
        if (!OPEN.has(state)) return { ok: false, status: 409, reason: `scan ${id} is ${state}, not waiting` };
        const now = clock.now();
        st.dueNow.run({ now, id });
        st.deliveriesNow.run({ now, id });
        return { ok: true, id };
      }),
    retry: (id) =>
      tx(() => {
        const state = stateOf(id);
        if (state === undefined) return missing(id);
        if (state !== "failed" && state !== "unconfirmed")
          return { ok: false, status: 409, reason: `scan ${id} is ${state}; only failed or unconfirmed scans are retried` };
        if (st.retryDeliveries.run({ now: clock.now(), id }).changes === 0)
          return { ok: false, status: 409, reason: `scan ${id} has no failed or unconfirmed delivery` };
        st.reopen.run(id);
        return { ok: true, id };
      }),
    cancel: (id) =>
      tx(() => {
        const state = stateOf(id);
        if (state === undefined) return missing(id);
        if (!OPEN.has(state)) return { ok: false, status: 409, reason: `scan ${id} is ${state}; only waiting scans are cancelled` };
        if ((st.delivering.get(id) as { n: number }).n > 0) return { ok: false, status: 409, reason: `scan ${id} is being delivered now` };
        const now = clock.now();
        st.cancelDeliveries.run({ now, id });
        st.cancelScan.run({ now, id });
        return { ok: true, id };
      }),
    clearHistory: (cutoff) =>
      tx(() => {
        st.clearDeliveries.run(cutoff);
        st.clearFiles.run(cutoff);
        return st.clearScans.run(cutoff).changes;
      }),
  };
}
