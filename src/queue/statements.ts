import type { Database, Statement } from "better-sqlite3";

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
    openIn: p<[string]>(
      "SELECT * FROM scan_queue INDEXED BY scan_queue_open_folder WHERE state = 'open' AND folder IN (SELECT value FROM json_each(?))",
    ),
    openRange: p<[string, string, string]>(
      "SELECT * FROM scan_queue INDEXED BY scan_queue_open_folder WHERE state = 'open' AND folder >= ? AND folder < ? AND folder <> ?",
    ),
    scanById: p<[number]>("SELECT * FROM scan_queue WHERE id = ?"),
    insertScan: p<[string, number, number, string, string, number, number, number]>(
      `INSERT INTO scan_queue (folder, state, priority, requests, source, event, first_requested_at, last_requested_at, due_at)
       VALUES (?, 'open', ?, ?, ?, ?, ?, ?, ?)`,
    ),
    updateMerged: p<[number, number, number, number, number, string, string, number]>(
      `UPDATE scan_queue SET due_at = ?, priority = ?, requests = ?, first_requested_at = ?, last_requested_at = ?,
       source = ?, event = ?, state = 'open' WHERE id = ?`,
    ),
    setScanState: p<[string, number | null, number]>("UPDATE scan_queue SET state = ?, finished_at = ? WHERE id = ?"),
    closeScan: p<[number]>("UPDATE scan_queue SET state = 'closed' WHERE id = ? AND state = 'open'"),
    deleteScan: p<[number]>("DELETE FROM scan_queue WHERE id = ?"),
    insertDelivery: p<[number, string, number, number]>(
      "INSERT OR IGNORE INTO scan_delivery (scan_id, target, state, due_at, updated_at) VALUES (?, ?, 'pending', ?, ?)",
    ),
    pushDeliveries: p<[number, number, number]>(
      "UPDATE scan_delivery INDEXED BY scan_delivery_scan_target SET due_at = MAX(?, retry_at), updated_at = ? WHERE scan_id = ? AND state = 'pending'",
    ),
    deleteDeliveries: p<[number]>("DELETE FROM scan_delivery WHERE scan_id = ?"),
    deliveriesOf: p<[number]>("SELECT * FROM scan_delivery WHERE scan_id = ? ORDER BY target"),
    deliveriesIn: p<[string]>("SELECT * FROM scan_delivery WHERE scan_id IN (SELECT value FROM json_each(?)) ORDER BY scan_id, target"),
    claimable: p<[string, number, number]>(
      `SELECT d.id AS deliveryId, d.scan_id AS scanId, s.folder AS folder, d.target AS target, d.attempts AS attempts,
       s.first_requested_at AS firstRequestedAt
       FROM scan_delivery d JOIN scan_queue s ON s.id = d.scan_id
       WHERE d.state = 'pending' AND d.target = ? AND d.due_at <= ?
       ORDER BY s.priority, d.due_at, d.id LIMIT ?`,
    ),
    markDelivering: p<[number, number]>("UPDATE scan_delivery SET state = 'delivering', updated_at = ? WHERE id = ? AND state = 'pending'"),
    markDone: p<[string | null, number, number]>(
      `UPDATE scan_delivery SET state = 'done', attempts = attempts + 1, libraries = COALESCE(?, libraries),
       updated_at = ? WHERE id = ? AND state = 'delivering'`,
    ),
    markRetry: p<[number, number, string, string | null, number, number]>(
      `UPDATE scan_delivery SET state = 'pending', attempts = attempts + 1, retry_at = ?,
       due_at = MAX(?, (SELECT due_at FROM scan_queue WHERE id = scan_id)), last_error = ?,
       libraries = COALESCE(?, libraries), updated_at = ? WHERE id = ? AND state = 'delivering'`,
    ),
    markFailed: p<[string, string | null, number, number]>(
      `UPDATE scan_delivery SET state = 'failed', attempts = attempts + 1, last_error = ?,
       libraries = COALESCE(?, libraries), updated_at = ? WHERE id = ? AND state = 'delivering'`,
    ),
    deliveryStates: p<[number]>("SELECT state, COUNT(*) AS n FROM scan_delivery WHERE scan_id = ? GROUP BY state"),
    nextDue: p<[string]>("SELECT MIN(due_at) AS at FROM scan_delivery WHERE state = 'pending' AND target = ?"),
    oldestWaiting: p<[]>(
      `SELECT MIN(s.first_requested_at) AS at FROM scan_queue s WHERE s.state IN ('open', 'closed')
       AND EXISTS (SELECT 1 FROM scan_delivery d INDEXED BY scan_delivery_scan_target WHERE d.scan_id = s.id AND d.state = 'pending')`,
    ),
    waitingSince: p<[number]>(
      `SELECT * FROM scan_queue s WHERE s.state IN ('open', 'closed') AND s.first_requested_at <= ?
       AND EXISTS (SELECT 1 FROM scan_delivery d INDEXED BY scan_delivery_scan_target WHERE d.scan_id = s.id AND d.state = 'pending')`,
    ),
    expireDeliveries: p<[string, number, number]>(
      `UPDATE scan_delivery INDEXED BY scan_delivery_scan_target SET state = 'failed', last_error = ? || COALESCE(last_error, 'none, never attempted'),
       updated_at = ? WHERE scan_id = ? AND state = 'pending'`,
    ),
    resetDelivering: p<[number]>("UPDATE scan_delivery SET state = 'pending', updated_at = ? WHERE state = 'delivering'"),
    reopenable: p<[]>(
      `SELECT id FROM scan_queue s WHERE s.state = 'closed'
       AND NOT EXISTS (SELECT 1 FROM scan_delivery d INDEXED BY scan_delivery_scan_target WHERE d.scan_id = s.id AND d.state <> 'pending')`,
    ),
    addMissingDeliveries: p<[string, number]>(
      `INSERT OR IGNORE INTO scan_delivery (scan_id, target, state, due_at, updated_at)
       SELECT id, ?, 'pending', due_at, ? FROM scan_queue WHERE state IN ('open', 'closed')`,
    ),
    countPending: p<[]>("SELECT COUNT(*) AS n FROM scan_queue WHERE state IN ('open', 'closed')"),
    countFailed: p<[]>("SELECT COUNT(*) AS n FROM scan_queue WHERE state = 'failed'"),
    listPending: p<[number]>("SELECT * FROM scan_queue WHERE state IN ('open', 'closed') ORDER BY priority, due_at, id LIMIT ?"),
    listFailed: p<[number]>("SELECT * FROM scan_queue WHERE state = 'failed' ORDER BY finished_at DESC, id DESC LIMIT ?"),
    recent: p<[number]>("SELECT * FROM scan_queue ORDER BY last_requested_at DESC, id DESC LIMIT ?"),
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
