import type { Database, Statement } from "better-sqlite3";
import { pathKey } from "./path-key.js";

/**
 * The files a scan named, kept with it: imports wait until each is visible
 * locally before the scan goes out (file-exists checks); deletions are kept
 * for what comes after the scan. Everything here runs inside the caller's
 * transaction.
 */
export function prepareFileStatements(db: Database) {
  const p = <P extends unknown[] = unknown[]>(sql: string): Statement<P> => db.prepare<P>(sql);
  return {
    // Found by (scan, path key) and the path itself (path-key.ts). The latest request wins: an upgrade
    // may delete and re-import one name. A refresh asked for stays asked for when the same import is
    // named again. A file named again as it stands is not written again.
    findFile: p<[number, number, string]>(
      "SELECT rowid AS id, deletion, seen, refresh FROM scan_file WHERE scan_id = ? AND path_key = ? AND path = ?",
    ),
    insertFile: p<[number, string, number, number, number]>(
      "INSERT INTO scan_file (scan_id, path, path_key, deletion, seen, refresh) VALUES (?, ?, ?, ?, 0, ?)",
    ),
    updateFile: p<[number, number, number]>("UPDATE scan_file SET deletion = ?, seen = 0, refresh = ? WHERE rowid = ?"),
    // The absorbing scan keeps its own row of a file both name.
    moveFiles: p<[{ into: number; from: number }]>(
      `INSERT INTO scan_file (scan_id, path, path_key, deletion, seen, refresh)
       SELECT @into, f.path, f.path_key, f.deletion, f.seen, f.refresh FROM scan_file f WHERE f.scan_id = @from
       AND NOT EXISTS (SELECT 1 FROM scan_file g WHERE g.scan_id = @into AND g.path_key = f.path_key AND g.path = f.path)`,
    ),
    filesOf: p<[number]>("SELECT path, deletion, seen FROM scan_file WHERE scan_id = ? ORDER BY path"),
    unseenCount: p<[number]>("SELECT COUNT(*) AS n FROM scan_file WHERE scan_id = ? AND deletion = 0 AND seen = 0"),
    markSeen: p<[number, number, string]>("UPDATE scan_file SET seen = 1 WHERE scan_id = ? AND path_key = ? AND path = ?"),
    // Holding a scan back: its waiting deliveries are out of the claim index.
    waitForFiles: p<[number, number]>("UPDATE scan_queue SET files_state = 'waiting', file_checks = 0, file_check_at = ? WHERE id = ?"),
    holdDeliveries: p<[number, number]>(
      "UPDATE scan_delivery INDEXED BY scan_delivery_scan_target SET state = 'waiting', updated_at = ? WHERE scan_id = ? AND state = 'pending'",
    ),
    releaseDeliveries: p<[number, number]>(
      "UPDATE scan_delivery INDEXED BY scan_delivery_scan_target SET state = 'pending', updated_at = ? WHERE scan_id = ? AND state = 'waiting'",
    ),
    failWaiting: p<[string, number, number]>(
      `UPDATE scan_delivery INDEXED BY scan_delivery_scan_target SET state = 'failed', last_error = ?, updated_at = ?
       WHERE scan_id = ? AND state IN ('pending', 'waiting')`,
    ),
    setFilesReady: p<[string | null, number]>("UPDATE scan_queue SET files_state = 'ready', detail = ? WHERE id = ?"),
    countChecked: p<[number, number, number]>("UPDATE scan_queue SET file_checks = ?, file_check_at = ? WHERE id = ?"),
    dueChecks: p<[number, number, number]>(
      `SELECT id, folder, file_checks AS checks FROM scan_queue INDEXED BY scan_queue_file_checks
       WHERE files_state = 'waiting' AND file_check_at <= ? AND due_at <= ? AND state IN ('open', 'closed')
       ORDER BY file_check_at, id LIMIT ?`,
    ),
    nextCheck: p<[]>(
      `SELECT MIN(MAX(file_check_at, due_at)) AS at FROM scan_queue INDEXED BY scan_queue_file_checks
       WHERE files_state = 'waiting' AND state IN ('open', 'closed')`,
    ),
  };
}

export type FileStatements = ReturnType<typeof prepareFileStatements>;

export interface FileRow {
  path: string;
  deletion: 0 | 1;
  seen: 0 | 1;
}

/** How a request named its files: removed, or with their items to refresh (docs/item-refresh.md). */
export interface FileIntent {
  deletion: boolean;
  refresh: boolean;
}

/** Whether naming `files` makes a scan wait for them: imports, with file checks on. */
export function holdsForFiles(gate: boolean, files: readonly string[], intent: FileIntent): boolean {
  return gate && !intent.deletion && files.length > 0;
}

/**
 * Remembers `files` with scan `scanId`. When file checks are on and an import
 * is not yet known to be visible, the scan waits for it: checks start again
 * from zero (at the scan's due time) and its deliveries are held, unless the
 * scan was created waiting by this request (`createdHeld`).
 */
export function attachFiles(
  fst: FileStatements,
  scanId: number,
  files: readonly string[],
  intent: FileIntent,
  gate: boolean,
  now: number,
  createdHeld = false,
): void {
  const { deletion } = intent;
  const flags = { deletion: deletion ? 1 : 0, refresh: intent.refresh && !deletion ? 1 : 0 };
  for (const file of files) {
    const key = pathKey(file);
    const row = fst.findFile.get(scanId, key, file) as (FileRow & { id: number; refresh: 0 | 1 }) | undefined;
    if (!row) {
      fst.insertFile.run(scanId, file, key, flags.deletion, flags.refresh);
      continue;
    }
    const refresh = deletion ? 0 : Math.max(row.refresh, flags.refresh);
    if (row.deletion !== flags.deletion || row.seen !== 0 || row.refresh !== refresh) fst.updateFile.run(flags.deletion, refresh, row.id);
  }
  if (createdHeld || !holdsForFiles(gate, files, intent)) return;
  fst.waitForFiles.run(0, scanId);
  fst.holdDeliveries.run(now, scanId);
}

/** Marks `files` of scan `scanId` as visible. */
export function markSeen(fst: FileStatements, scanId: number, files: readonly string[]): void {
  for (const file of files) fst.markSeen.run(scanId, pathKey(file), file);
}

/** Moves a scan's files onto the scan that absorbs it; if an absorbed file is still unseen, the holder waits too. */
export function moveFiles(fst: FileStatements, intoId: number, fromId: number, gate: boolean, now: number): void {
  const moved = fst.moveFiles.run({ into: intoId, from: fromId }).changes;
  if (moved === 0 || !gate) return;
  if ((fst.unseenCount.get(intoId) as { n: number }).n === 0) return;
  fst.waitForFiles.run(0, intoId);
  fst.holdDeliveries.run(now, intoId);
}
