import type { Database, Statement } from "better-sqlite3";
import type { Hold, HoldKind } from "./shown-state.js";

export type { Hold, HoldKind } from "./shown-state.js";

/** A hold as serve sees it now; a stored one keeps its `since`, a new one starts at `since` (or now). */
export type HoldInput = Omit<Hold, "since"> & { since?: number };

/**
 * The `scan_hold` table: what holds every delivery back now (a missing
 * anchor, a target down or refusing its token). ScanQueue.recordHolds is its
 * one writer; the shown states, the counts and the reasons read it, in serve
 * and in `scanarr status` alike.
 */
export function prepareHoldStatements(db: Database) {
  const p = <P extends unknown[] = unknown[]>(sql: string): Statement<P> => db.prepare<P>(sql);
  return {
    all: p<[]>("SELECT kind, subject, detail, since FROM scan_hold ORDER BY since, key"),
    upsert: p<[string, string, string, string | null, number]>(
      `INSERT INTO scan_hold (key, kind, subject, detail, since) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET detail = excluded.detail`,
    ),
    removeOthers: p<[string]>("DELETE FROM scan_hold WHERE key NOT IN (SELECT value FROM json_each(?))"),
  };
}

export type HoldStatements = ReturnType<typeof prepareHoldStatements>;

const keyOf = (h: { kind: HoldKind; subject: string }) => `${h.kind}:${h.subject}`;

export function readHolds(st: HoldStatements): Hold[] {
  return st.all.all() as Hold[];
}

/** Whether `holds` differ from the stored ones (kinds, subjects or details). */
export function holdsDiffer(stored: readonly Hold[], holds: readonly HoldInput[]): boolean {
  const text = (list: readonly HoldInput[]) =>
    JSON.stringify(list.map((h) => [keyOf(h), h.detail ?? null]).sort(([a], [b]) => String(a).localeCompare(String(b))));
  return text(stored) !== text(holds);
}

/** Makes the stored holds `holds` (inside the caller's transaction); a hold already stored keeps its `since`. */
export function replaceHolds(st: HoldStatements, holds: readonly HoldInput[], now: number): void {
  for (const h of holds) st.upsert.run(keyOf(h), h.kind, h.subject, h.detail, h.since ?? now);
  st.removeOthers.run(JSON.stringify(holds.map(keyOf)));
}
