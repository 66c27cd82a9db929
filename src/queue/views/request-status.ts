import type { Database } from "better-sqlite3";
import { ancestorsOf, descendantRangeOf, normalizeFolder } from "../folder-key.js";
import type { ScanRow } from "../rows.js";
import { ScanViews, type ListedScan } from "./scan-views.js";
import type { RequestOrigin } from "../types.js";

/** One request that named the path (or a folder holding it, or a path inside it), and the scan it went into. */
export interface RequestTrail {
  origin: RequestOrigin;
  scan: ListedScan;
}

/** Where the requests for a path went (`scanarr status`). */
export interface RequestStatus {
  /** The path asked about, and the same mapped by SERVER_PATH_MAPPINGS when that differs. */
  looked: string[];
  requests: RequestTrail[];
  /** When no request named it: the stored paths sharing the longest prefix with it. */
  nearest: string[];
}

const TRAILS_SHOWN = 20;
const NEAREST_SHOWN = 5;

/**
 * Finds the requests for `paths` (a file or a folder, as named or as mapped):
 * those naming it, a folder holding it, or a path inside it; each with the
 * scan that took it in, as the queue shows it (state, reason, deliveries).
 * Reads only: safe on a read-only handle while serve writes. The paths have
 * no index (every webhook would write it, for a command a person runs):
 * each lookup reads the table through.
 */
export function requestStatus(db: Database, paths: readonly string[], now: number): RequestStatus {
  const looked = [...new Set(paths.map(keyOf))];
  const views = new ScanViews(db, { now: () => now });
  const exact = db.prepare(
    `SELECT * FROM scan_request WHERE path IN (SELECT value FROM json_each(@keys)) OR mapped IN (SELECT value FROM json_each(@keys))
     ORDER BY last_at DESC LIMIT @limit`,
  );
  const inside = db.prepare(`SELECT * FROM scan_request WHERE mapped >= @from AND mapped < @to ORDER BY mapped LIMIT @limit`);
  const insideNamed = db.prepare(`SELECT * FROM scan_request WHERE path >= @from AND path < @to ORDER BY path LIMIT @limit`);
  const keys = JSON.stringify(looked.flatMap((p) => [p, ...attempt(() => ancestorsOf(p), [])]));
  const rows = new Map<string, RequestRow>();
  const add = (list: unknown[]) => {
    for (const r of list as RequestRow[]) rows.set(`${r.scan_id}\u0000${r.path}`, r);
  };
  add(exact.all({ keys, limit: TRAILS_SHOWN }));
  for (const p of looked) {
    const { from, to } = attempt(() => descendantRangeOf(p), { from: `${p}/`, to: `${p}0` });
    add(inside.all({ from, to, limit: TRAILS_SHOWN }));
    add(insideNamed.all({ from, to, limit: TRAILS_SHOWN }));
  }
  const trails = [...rows.values()].sort((a, b) => b.last_at - a.last_at).slice(0, TRAILS_SHOWN);
  const scanRows = db
    .prepare("SELECT * FROM scan_queue WHERE id IN (SELECT value FROM json_each(?))")
    .all(JSON.stringify([...new Set(trails.map((t) => t.scan_id))])) as ScanRow[];
  const scans = new Map(views.show(scanRows).map((s) => [s.id, s]));
  const requests = trails.flatMap((t) => {
    const scan = scans.get(t.scan_id);
    return scan ? [{ origin: originOf(t), scan }] : [];
  });
  return { looked, requests, nearest: requests.length > 0 ? [] : nearest(db, looked) };
}

interface RequestRow {
  scan_id: number;
  path: string;
  mapped: string;
  mapping_key: string | null;
  mapping_prefix: string | null;
  source: string;
  event: string;
  first_at: number;
  last_at: number;
  times: number;
}

function originOf(r: RequestRow): RequestOrigin {
  return {
    path: r.path,
    mapped: r.mapped,
    mappingKey: r.mapping_key,
    mappingPrefix: r.mapping_prefix,
    source: r.source,
    event: r.event,
    firstAt: r.first_at,
    lastAt: r.last_at,
    times: r.times,
  };
}

/** A path as the queue keys folders (no trailing separator); left as it is when it cannot be one (a drive path). */
function keyOf(p: string): string {
  return attempt(() => normalizeFolder(p), p);
}

function attempt<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/** The stored paths (as named and as mapped) next to `looked` in sort order, ranked by the whole segments they share with it. */
function nearest(db: Database, looked: readonly string[]): string[] {
  const around = (column: "path" | "mapped") => [
    db.prepare(`SELECT ${column} AS p FROM scan_request WHERE ${column} < ? ORDER BY ${column} DESC LIMIT ?`),
    db.prepare(`SELECT ${column} AS p FROM scan_request WHERE ${column} >= ? ORDER BY ${column} LIMIT ?`),
  ];
  const statements = [...around("path"), ...around("mapped")];
  const found = new Map<string, number>();
  for (const p of looked) {
    for (const st of statements) {
      for (const row of st.all(p, NEAREST_SHOWN) as Array<{ p: string }>) {
        found.set(row.p, Math.max(found.get(row.p) ?? 0, sharedSegments(p, row.p)));
      }
    }
  }
  return [...found]
    .filter(([, shared]) => shared > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, NEAREST_SHOWN)
    .map(([p]) => p);
}

function sharedSegments(a: string, b: string): number {
  const x = a.split(/[\\/]/);
  const y = b.split(/[\\/]/);
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n += 1;
  // A leading separator gives an empty first segment: it is not a shared name.
  return x[0] === "" ? Math.max(0, n - 1) : n;
}
