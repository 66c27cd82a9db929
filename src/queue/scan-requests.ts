import type { Database, Statement } from "better-sqlite3";
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
    // A repeat counts up and leaves the mapping (and the index on it) alone; should the mapping
    // differ (the config changed), nothing is written here and `remap` does it all.
    upsert: p<[number, string, string, string | null, string | null, string, string, number, number]>(
      `INSERT INTO scan_request (scan_id, path, mapped, mapping_key, mapping_prefix, source, event, first_at, last_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (scan_id, path) DO UPDATE SET source = excluded.source, event = excluded.event, last_at = excluded.last_at, times = times + 1
       WHERE mapped = excluded.mapped AND mapping_key IS excluded.mapping_key AND mapping_prefix IS excluded.mapping_prefix`,
    ),
    remap: p<[string, string | null, string | null, string, string, number, number, string]>(
      `UPDATE scan_request SET mapped = ?, mapping_key = ?, mapping_prefix = ?, source = ?, event = ?, last_at = ?, times = times + 1
       WHERE scan_id = ? AND path = ?`,
    ),
    move: p<[number, number]>("UPDATE OR REPLACE scan_request SET scan_id = ? WHERE scan_id = ?"),
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
    if (st.upsert.run(scanId, o.path, o.mapped, key, prefix, source, event, now, now).changes === 0) {
      st.remap.run(o.mapped, key, prefix, source, event, now, scanId, o.path);
    }
  }
}

/** Up to `perScan` origins of each scan, latest first. */
export function originsOf(st: RequestStatements, ids: string, perScan: number): Array<RequestOrigin & { scanId: number }> {
  return st.originsIn.all(ids, perScan) as Array<RequestOrigin & { scanId: number }>;
}
