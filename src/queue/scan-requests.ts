import type { Database, Statement } from "better-sqlite3";
import { pathKey } from "./path-key.js";
import type { RequestOrigin } from "./types.js";

/** A path a request named, as ScanRequest.origins carries it. */
export interface OriginInput {
  path: string;
  mapped: string;
  mappingKey?: string;
  mappingPrefix?: string;
}

/**
 * The `scan_request` table: every path a request named, kept with the scan
 * that took it in (a repeat counts up), so `scanarr status` can say where a
 * request went and the reasons can say how its path was mapped. Rows follow
 * their scan when it is absorbed, and go with it when it is deleted.
 * Everything here runs inside the caller's transaction.
 */
export function prepareRequestStatements(db: Database) {
  const p = <P extends unknown[] = unknown[]>(sql: string): Statement<P> => db.prepare<P>(sql);
  return {
    // Found by (scan, path key) and the path itself (path-key.ts); a repeat counts up and leaves the
    // mapping alone; should the mapping differ (the config changed), `remap` writes it.
    find: p<[number, number, string]>(
      `SELECT rowid AS id, mapped, mapping_key AS mappingKey, mapping_prefix AS mappingPrefix FROM scan_request
       WHERE scan_id = ? AND path_key = ? AND path = ?`,
    ),
    insert: p<[number, string, number, string, string | null, string | null, string, string, number, number]>(
      `INSERT INTO scan_request (scan_id, path, path_key, mapped, mapping_key, mapping_prefix, source, event, first_at, last_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    countUp: p<[string, string, number, number]>(
      "UPDATE scan_request SET source = ?, event = ?, last_at = ?, times = times + 1 WHERE rowid = ?",
    ),
    remap: p<[string, string | null, string | null, string, string, number, number]>(
      `UPDATE scan_request SET mapped = ?, mapping_key = ?, mapping_prefix = ?, source = ?, event = ?, last_at = ?, times = times + 1
       WHERE rowid = ?`,
    ),
    // Moving a scan's rows onto the scan absorbing it: a path both name keeps the moved row.
    dropShared: p<[{ into: number; from: number }]>(
      `DELETE FROM scan_request WHERE rowid IN (SELECT g.rowid FROM scan_request f JOIN scan_request g
       ON g.scan_id = @into AND g.path_key = f.path_key AND g.path = f.path WHERE f.scan_id = @from)`,
    ),
    move: p<[number, number]>("UPDATE scan_request SET scan_id = ? WHERE scan_id = ?"),
    originsIn: p<[string, number]>(
      `SELECT scanId, path, mapped, mappingKey, mappingPrefix, source, event, firstAt, lastAt, times FROM (
       SELECT scan_id AS scanId, path, mapped, mapping_key AS mappingKey, mapping_prefix AS mappingPrefix, source, event,
       first_at AS firstAt, last_at AS lastAt, times, row_number() OVER (PARTITION BY scan_id ORDER BY last_at DESC, path) AS n
       FROM scan_request WHERE scan_id IN (SELECT value FROM json_each(?))) WHERE n <= ? ORDER BY scanId, lastAt DESC, path`,
    ),
  };
}

export type RequestStatements = ReturnType<typeof prepareRequestStatements>;

/** Remembers the paths one request named, for scan `scanId`. */
export function recordOrigins(
  st: RequestStatements,
  scanId: number,
  origins: readonly OriginInput[],
  source: string,
  event: string,
  now: number,
): void {
  for (const o of origins) {
    const key = o.mappingKey ?? null;
    const prefix = o.mappingPrefix ?? null;
    const pk = pathKey(o.path);
    const row = st.find.get(scanId, pk, o.path) as StoredOrigin | undefined;
    if (!row) st.insert.run(scanId, o.path, pk, o.mapped, key, prefix, source, event, now, now);
    else if (row.mapped === o.mapped && row.mappingKey === key && row.mappingPrefix === prefix) st.countUp.run(source, event, now, row.id);
    else st.remap.run(o.mapped, key, prefix, source, event, now, row.id);
  }
}

interface StoredOrigin {
  id: number;
  mapped: string;
  mappingKey: string | null;
  mappingPrefix: string | null;
}

/** Moves scan `fromId`'s paths onto scan `intoId`, which absorbs it. */
export function moveOrigins(st: RequestStatements, intoId: number, fromId: number): void {
  st.dropShared.run({ into: intoId, from: fromId });
  st.move.run(intoId, fromId);
}

/** Up to `perScan` origins of each scan, latest first. */
export function originsOf(st: RequestStatements, ids: string, perScan: number): Array<RequestOrigin & { scanId: number }> {
  return st.originsIn.all(ids, perScan) as Array<RequestOrigin & { scanId: number }>;
}
