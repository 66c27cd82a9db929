import type { Database, Statement } from "better-sqlite3";
import { OPEN_SCAN_COLUMNS } from "./open-scan.js";

/**
 * Every statement the queue runs, prepared once. The coalescing lookups name
 * the partial index on open folders: without statistics SQLite would pick the
 * state index and walk every open scan on each request. `state = 'open'` is a
 * literal so the partial index applies. Lookups of one scan's deliveries name
 * theirs for the same reason.
 */
export function prepareStatements(db: Database) {
  const p = <P extends unknown[] = unknown[]>(sql: string): Statement<P> => db.prepare<P>(sql);
  return {
    // The open-scan lookups answer raw rows of OPEN_SCAN_COLUMNS (open-scan.ts).
    openFolder: p<[string]>(
      `SELECT ${OPEN_SCAN_COLUMNS} FROM scan_queue INDEXED BY scan_queue_open_folder WHERE state = 'open' AND folder = ?`,
    ).raw(true),
    openRange: p<[string, string, string]>(
      `SELECT ${OPEN_SCAN_COLUMNS} FROM scan_queue INDEXED BY scan_queue_open_folder WHERE state = 'open' AND folder >= ? AND folder < ? AND folder <> ?`,
    ).raw(true),
    scanById: p<[number]>("SELECT * FROM scan_queue WHERE id = ?"),
    // files_state 'none', or 'waiting' for a scan created by a request naming imports to wait for (checks from zero).
    insertScan: p<[string, number, number, string, string, number, number, number, number, string]>(
      `INSERT INTO scan_queue (folder, state, priority, requests, source, event, first_requested_at, last_requested_at, due_at, scan_folder, files_state)
       VALUES (?, 'open', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // A request that is not only sidecars merged in: the folder is scanned.
    needFolderScan: p<[number]>("UPDATE scan_queue SET scan_folder = 1 WHERE id = ? AND scan_folder = 0"),
    // A request merging into a scan that is open already: neither its state nor its first request
    // changes, so the indexes on them (the open folders', the state ones) are left alone.
    mergeIntoOpen: p<[number, number, number, number, string, string, number, number]>(
      `UPDATE scan_queue SET due_at = ?, priority = ?, requests = ?, last_requested_at = ?, source = ?, event = ?,
       scan_folder = MAX(scan_folder, ?) WHERE id = ?`,
    ),
    // The same, when neither the due time nor the priority moved: the scan's row alone is written,
    // no index entry and no delivery (a burst of requests for one folder within one due step).
    countIntoOpen: p<[number, number, string, string, number, number]>(
      `UPDATE scan_queue SET requests = ?, last_requested_at = ?, source = ?, event = ?, scan_folder = MAX(scan_folder, ?) WHERE id = ?`,
    ),
    updateMerged: p<[number, number, number, number, number, string, string, number]>(
      `UPDATE scan_queue SET due_at = ?, priority = ?, requests = ?, first_requested_at = ?, last_requested_at = ?,
       source = ?, event = ?, state = 'open' WHERE id = ?`,
    ),
    setScanState: p<[string, number | null, number]>(
      "UPDATE scan_queue SET state = ?, finished_at = ? WHERE id = ? AND state IN ('open', 'closed')",
    ),
    closeScan: p<[number]>("UPDATE scan_queue SET state = 'closed' WHERE id = ? AND state = 'open'"),
    deleteScan: p<[number]>("DELETE FROM scan_queue WHERE id = ?"),
    insertDelivery: p<[number, string, string, number, number, number]>(
      "INSERT OR IGNORE INTO scan_delivery (scan_id, target, state, priority, due_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    ),
    pushDeliveries: p<[number, number, number, number]>(
      `UPDATE scan_delivery INDEXED BY scan_delivery_scan_target SET due_at = MAX(?, retry_at), priority = ?, updated_at = ?
       WHERE scan_id = ? AND state IN ('pending', 'waiting')`,
    ),
    deleteDeliveries: p<[number]>("DELETE FROM scan_delivery WHERE scan_id = ?"),
    deliveriesOf: p<[number]>("SELECT * FROM scan_delivery WHERE scan_id = ? ORDER BY target"),
    deliveriesIn: p<[string]>("SELECT * FROM scan_delivery WHERE scan_id IN (SELECT value FROM json_each(?)) ORDER BY scan_id, target"),
    // The claim walks the partial index one priority at a time: the next
    // priority that has a pending delivery, then its due ones in due order.
    // Each step is an index seek, whatever the backlog.
    nextPriority: p<[string, number]>(
      "SELECT MIN(priority) AS priority FROM scan_delivery INDEXED BY scan_delivery_claim WHERE state = 'pending' AND target = ? AND priority > ?",
    ),
    claimable: p<[string, number, number, number]>(
      `SELECT d.id AS deliveryId, d.scan_id AS scanId, s.folder AS folder, d.target AS target, d.attempts AS attempts,
       s.first_requested_at AS firstRequestedAt, s.source AS source, s.event AS event, s.scan_folder AS scanFolder
       FROM scan_delivery d INDEXED BY scan_delivery_claim JOIN scan_queue s ON s.id = d.scan_id
       WHERE d.state = 'pending' AND d.target = ? AND d.priority = ? AND d.due_at <= ?
       ORDER BY d.due_at, d.id LIMIT ?`,
    ),
    markDelivering: p<[string, number, number, number]>(
      "UPDATE scan_delivery SET state = 'delivering', owner = ?, lease_until = ?, updated_at = ? WHERE id = ? AND state = 'pending'",
    ),
    renewLeases: p<[number, string]>(
      "UPDATE scan_delivery INDEXED BY scan_delivery_lease SET lease_until = ? WHERE state = 'delivering' AND owner = ?",
    ),
    // Never our own claims: a live owner holds each of them in memory.
    expiredLeases: p<[number, string]>(
      `SELECT id, scan_id AS scanId, owner FROM scan_delivery INDEXED BY scan_delivery_lease
       WHERE state = 'delivering' AND lease_until < ? AND owner IS NOT ?`,
    ),
    releaseLease: p<[number, number]>(
      "UPDATE scan_delivery SET state = 'pending', owner = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND state = 'delivering'",
    ),
    // A claim given back unsent: pending as it was, no attempt counted.
    releaseClaim: p<[number, number, string]>(
      "UPDATE scan_delivery SET state = 'pending', owner = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND state = 'delivering' AND owner = ?",
    ),
    nextLeaseEnd: p<[]>("SELECT MIN(lease_until) AS at FROM scan_delivery INDEXED BY scan_delivery_lease WHERE state = 'delivering'"),
    // Recording an outcome needs the claim still to be ours: a claim whose
    // lease ran out went back to pending and may be someone else's by now.
    markDone: p<[string | null, number, string | null, number, number, string]>(
      `UPDATE scan_delivery SET state = 'done', attempts = attempts + 1, libraries = COALESCE(?, libraries), delivered_at = ?,
       detail = COALESCE(?, detail), last_error = NULL, owner = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND state = 'delivering' AND owner = ?`,
    ),
    markRetry: p<[number, number, string, string | null, number, number, string]>(
      `UPDATE scan_delivery SET state = 'pending', attempts = attempts + 1, retry_at = ?,
       due_at = MAX(?, (SELECT due_at FROM scan_queue WHERE id = scan_id)), last_error = ?,
       libraries = COALESCE(?, libraries), owner = NULL, lease_until = NULL, updated_at = ?
       WHERE id = ? AND state = 'delivering' AND owner = ?`,
    ),
    markFailed: p<[string, string | null, number, number, string]>(
      `UPDATE scan_delivery SET state = 'failed', attempts = attempts + 1, last_error = ?,
       libraries = COALESCE(?, libraries), owner = NULL, lease_until = NULL, updated_at = ?
       WHERE id = ? AND state = 'delivering' AND owner = ?`,
    ),
    markSkipped: p<[string, number, number, string]>(
      `UPDATE scan_delivery SET state = 'skipped', attempts = attempts + 1, last_error = ?, owner = NULL, lease_until = NULL,
       updated_at = ? WHERE id = ? AND state = 'delivering' AND owner = ?`,
    ),
    // A target taken out of the config is no longer waited for. Start-up only:
    // it walks one index of every delivery.
    dropRemovedTargets: p<[string, number, string]>(
      `UPDATE scan_delivery INDEXED BY scan_delivery_scan_target SET state = 'skipped', last_error = ?, owner = NULL, lease_until = NULL, updated_at = ?
       WHERE state IN ('waiting', 'pending', 'delivering', 'confirming') AND target NOT IN (SELECT value FROM json_each(?))
       RETURNING scan_id AS scanId`,
    ),
    importsOf: p<[number]>("SELECT path, deletion, refresh FROM scan_file WHERE scan_id = ? ORDER BY path"),
    deliveryStates: p<[number]>("SELECT state, COUNT(*) AS n FROM scan_delivery WHERE scan_id = ? GROUP BY state"),
    nextDue: p<[string]>(
      "SELECT MIN(due_at) AS at FROM scan_delivery INDEXED BY scan_delivery_next WHERE state = 'pending' AND target = ?",
    ),
    // Per state, in first-request order, stopping at the first scan that still waits for a
    // delivery: a MIN() with the EXISTS filter would walk every open and closed scan.
    oldestWaiting: p<[string]>(
      `SELECT s.first_requested_at AS at FROM scan_queue s INDEXED BY scan_queue_state_first WHERE s.state = ?
       AND EXISTS (SELECT 1 FROM scan_delivery d INDEXED BY scan_delivery_scan_target WHERE d.scan_id = s.id AND d.state IN ('pending', 'waiting'))
       ORDER BY s.first_requested_at LIMIT 1`,
    ),
    waitingSince: p<[number]>(
      `SELECT * FROM scan_queue s WHERE s.state IN ('open', 'closed') AND s.first_requested_at <= ?
       AND EXISTS (SELECT 1 FROM scan_delivery d INDEXED BY scan_delivery_scan_target WHERE d.scan_id = s.id AND d.state IN ('pending', 'waiting'))`,
    ),
    expireDeliveries: p<[string, number, number]>(
      `UPDATE scan_delivery INDEXED BY scan_delivery_scan_target SET state = 'failed', last_error = ? || COALESCE(last_error, 'none, never attempted'),
       updated_at = ? WHERE scan_id = ? AND state IN ('pending', 'waiting')`,
    ),
    // A token fixed while scanarr was stopped: scans held back by a refused token go out at once.
    releaseAuthHolds: p<[number]>(
      `UPDATE scan_delivery INDEXED BY scan_delivery_claim SET retry_at = 0,
       due_at = (SELECT due_at FROM scan_queue WHERE id = scan_id), updated_at = ?
       WHERE state = 'pending' AND last_error LIKE 'TargetAuthError%'`,
    ),
    resetDelivering: p<[number]>(
      "UPDATE scan_delivery SET state = 'pending', owner = NULL, lease_until = NULL, updated_at = ? WHERE state = 'delivering'",
    ),
    reopenable: p<[]>(
      `SELECT id FROM scan_queue s WHERE s.state = 'closed'
       AND NOT EXISTS (SELECT 1 FROM scan_delivery d INDEXED BY scan_delivery_scan_target WHERE d.scan_id = s.id AND d.state NOT IN ('pending', 'waiting'))`,
    ),
    addMissingDeliveries: p<[string, number]>(
      `INSERT OR IGNORE INTO scan_delivery (scan_id, target, state, priority, due_at, updated_at)
       SELECT id, ?, CASE files_state WHEN 'waiting' THEN 'waiting' ELSE 'pending' END, priority, due_at, ? FROM scan_queue
       WHERE state IN ('open', 'closed')`,
    ),
    countPending: p<[]>("SELECT COALESCE(SUM(n), 0) AS n FROM scan_count WHERE state IN ('open', 'closed')"),
    countFailed: p<[]>("SELECT COALESCE(SUM(n), 0) AS n FROM scan_count WHERE state = 'failed'"),
    finishedCutoff: p<[string, number]>(
      "SELECT finished_at AS at FROM scan_queue WHERE state = ? ORDER BY finished_at DESC LIMIT 1 OFFSET ?",
    ),
    pruneDeliveries: p<[string, number]>(
      "DELETE FROM scan_delivery WHERE scan_id IN (SELECT id FROM scan_queue WHERE state = ? AND finished_at < ?)",
    ),
    pruneScans: p<[string, number]>("DELETE FROM scan_queue WHERE state = ? AND finished_at < ?"),
  };
}

export type QueueStatements = ReturnType<typeof prepareStatements>;
