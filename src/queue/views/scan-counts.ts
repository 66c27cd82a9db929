import type { Database, Statement } from "better-sqlite3";
import { HISTORY_STATES, heldTargets, isLive, SHOWN_STATES, WAITING_STATES, type Hold, type ScanState } from "../shown-state.js";
import type { StoredScanState } from "../lifecycle.js";

/**
 * Scans per shown state, by the rules of shownState, for the dashboard, the
 * JSON API, /health and the `scanarr_queue_scans` gauge alike. Finished scans
 * come from the `scan_count` table the triggers keep (one row per stored
 * state), so the history costs nothing whatever it holds. Live scans are
 * counted through partial indexes, each walk as long as the state it counts:
 * deliveries in flight (bounded by the concurrency) and being confirmed, scans
 * waiting for files, still debouncing, held by a target that is down, or
 * retrying; `queued` (due, waiting its turn: the big backlog) is what is left.
 */
export function prepareCountStatements(db: Database) {
  const p = <P extends unknown[] = unknown[]>(sql: string): Statement<P> => db.prepare<P>(sql);
  // A live scan with nothing in flight and nothing to wait for before its turn (@busy: ids of scans in flight).
  const due = `s.state IN ('open', 'closed') AND s.due_at <= @now AND s.files_state <> 'waiting'
    AND s.id NOT IN (SELECT value FROM json_each(@busy))`;
  // Scan s has a pending delivery to a target that is not held (@held: the held targets' names).
  const free = `EXISTS (SELECT 1 FROM scan_delivery o INDEXED BY scan_delivery_scan_target WHERE o.scan_id = s.id AND o.state = 'pending'
      AND o.target NOT IN (SELECT value FROM json_each(@held)))`;
  // CROSS JOIN keeps the delivery index as the outer loop: the walk is as long as what it counts.
  return {
    stored: p<[]>("SELECT state, n FROM scan_count WHERE n > 0"),
    delivering: p<[]>("SELECT DISTINCT scan_id AS id FROM scan_delivery INDEXED BY scan_delivery_lease WHERE state = 'delivering'"),
    confirming: p<[]>("SELECT DISTINCT scan_id AS id FROM scan_delivery INDEXED BY scan_delivery_confirming WHERE state = 'confirming'"),
    // A scan still in its quiet time counts as debouncing: its files are looked for once it is due.
    waitingFiles: p<[{ now: number }]>(
      `SELECT COUNT(*) AS n FROM scan_queue INDEXED BY scan_queue_file_checks WHERE files_state = 'waiting' AND state IN ('open', 'closed')
       AND due_at <= @now`,
    ),
    // Covered by the index (due_at, files_state): no table row is read.
    debouncing: p<[{ now: number }]>(
      "SELECT COUNT(*) AS n FROM scan_queue INDEXED BY scan_queue_live_due WHERE state IN ('open', 'closed') AND due_at > @now",
    ),
    // Of the scans in flight (few), those the two counts above took in.
    busyWaiting: p<[{ busy: string; now: number }]>(
      `SELECT COALESCE(SUM(files_state = 'waiting' AND due_at <= @now), 0) AS files, COALESCE(SUM(due_at > @now), 0) AS debouncing
       FROM scan_queue WHERE id IN (SELECT value FROM json_each(@busy))`,
    ),
    // Due scans some target not held can take: the backlog of the targets that work (they drain it).
    free: p<[{ busy: string; now: number; held: string }]>(
      `SELECT COUNT(DISTINCT d.scan_id) AS n FROM scan_delivery d INDEXED BY scan_delivery_next CROSS JOIN scan_queue s ON s.id = d.scan_id
       WHERE d.state = 'pending' AND d.target NOT IN (SELECT value FROM json_each(@held)) AND ${due}`,
    ),
    retrying: p<[{ busy: string; now: number; held: string }]>(
      `SELECT COUNT(DISTINCT r.scan_id) AS n FROM scan_delivery r INDEXED BY scan_delivery_retrying CROSS JOIN scan_queue s ON s.id = r.scan_id
       WHERE r.state = 'pending' AND r.attempts > 0 AND ${due} AND (@held = '[]' OR ${free})`,
    ),
  };
}

export type CountStatements = ReturnType<typeof prepareCountStatements>;

export type ScanCounts = Record<ScanState, number>;

const n = (row: unknown) => (row as { n: number }).n;

/** Scans per shown state, every state present (0 when none); they add up to the scans the database holds. */
export function countScans(st: CountStatements, now: number, holds: readonly Hold[]): ScanCounts {
  const counts = Object.fromEntries(SHOWN_STATES.map((s) => [s, 0])) as ScanCounts;
  let live = 0;
  for (const row of st.stored.all() as Array<{ state: StoredScanState; n: number }>) {
    if (isLive(row.state)) live += row.n;
    else if ((HISTORY_STATES as readonly string[]).includes(row.state))
      counts[row.state as Exclude<StoredScanState, "open" | "closed">] += row.n;
  }
  if (live === 0) return counts;
  const delivering = new Set((st.delivering.all() as Array<{ id: number }>).map((r) => r.id));
  const confirming = (st.confirming.all() as Array<{ id: number }>).map((r) => r.id).filter((id) => !delivering.has(id));
  counts.delivering = delivering.size;
  counts.confirming = confirming.length;
  const busy = JSON.stringify([...delivering, ...confirming]);
  const inFlight = st.busyWaiting.get({ busy, now }) as { files: number; debouncing: number };
  counts["waiting-for-files"] = n(st.waitingFiles.get({ now })) - inFlight.files;
  counts.debouncing = n(st.debouncing.get({ now })) - inFlight.debouncing;
  // Due, nothing in flight, no file to wait for: every one of them has a pending delivery.
  const due = live - counts.delivering - counts.confirming - counts["waiting-for-files"] - counts.debouncing;
  if (holds.some((h) => h.kind === "anchor")) {
    counts.held = due;
    return counts;
  }
  const held = JSON.stringify([...heldTargets(holds)]);
  counts.held = held === "[]" ? 0 : due - n(st.free.get({ busy, now, held }));
  counts.retrying = n(st.retrying.get({ busy, now, held }));
  counts.queued = due - counts.held - counts.retrying;
  return counts;
}

/** Scans not yet handed to every target (live, but not being confirmed): /health's `pending`. */
export function pendingOf(counts: ScanCounts): number {
  return WAITING_STATES.reduce((sum, state) => sum + counts[state], 0);
}
