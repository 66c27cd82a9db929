/**
 * What the day replay measured, read from the service's own database (the
 * times are its clock's: when a request was taken, when a server accepted
 * the scan, when the scan was confirmed) and from the fake servers (the
 * scan calls each received).
 */
import type Database from "better-sqlite3";
import type { DayPlan, EventKind } from "./replay-plan.js";
import { plexForm, SERVER_NAMES, type ServerName } from "./replay-servers.js";

export interface TargetFigures {
  name: string;
  /** The service confirms this target's scans: the capability, or a delivery it recorded as confirming. */
  confirms: boolean;
  /** Requests measured: each webhook that first names a file (not Import Complete, whose files the batch named). */
  requests: number;
  /** Request → the server accepted the scan, ms of the service's clock. */
  askedMs: number[];
  /** Request → the scan confirmed (empty when the target does not confirm). */
  confirmedMs: number[];
  /** Request → confirmed by the kind of event the request was part of; Infinity for one never confirmed. */
  confirmedByKind: Map<EventKind, number[]>;
  /** Requests whose scan this target ended unconfirmed. */
  unconfirmed: number;
  /** Requests whose scan this target never took (none recorded, failed, skipped, still open). */
  undelivered: number;
  /** Scan calls the server received for folders that had an import, and the changes of those folders in the day. */
  scans: number;
  importFolderChanges: number;
}

interface DeliveryRow {
  target: string;
  state: string;
  deliveredAt: number | null;
  updatedAt: number;
}

export function collectFigures(
  db: Database.Database,
  plan: DayPlan,
  context: { dayStart: number; confirming: ReadonlySet<string>; scansOf: (server: ServerName) => string[][] },
): TargetFigures[] {
  const scanOf = db
    .prepare(
      `SELECT q.id FROM scan_queue q JOIN scan_file f ON f.scan_id = q.id
       WHERE f.path = ? AND q.first_requested_at <= ? AND q.last_requested_at >= ? ORDER BY q.id LIMIT 1`,
    )
    .pluck();
  const deliveriesOf = db.prepare(
    "SELECT target, state, delivered_at AS deliveredAt, updated_at AS updatedAt FROM scan_delivery WHERE scan_id = ?",
  );
  const names = db.prepare("SELECT DISTINCT target FROM scan_delivery").pluck().all() as string[];
  // A delivery recorded as confirming, or finished later than the server took the scan: the service confirms that target.
  const seenConfirming = new Set(
    db
      .prepare(
        `SELECT DISTINCT target FROM scan_delivery WHERE confirm IS NOT NULL OR state IN ('confirming', 'unconfirmed')
         OR (state = 'done' AND updated_at > delivered_at)`,
      )
      .pluck()
      .all() as string[],
  );
  const figures = new Map<string, TargetFigures>(
    names.map((name) => [
      name,
      {
        name,
        confirms: context.confirming.has(name) || seenConfirming.has(name),
        requests: 0,
        askedMs: [],
        confirmedMs: [],
        confirmedByKind: new Map(),
        unconfirmed: 0,
        undelivered: 0,
        scans: 0,
        importFolderChanges: 0,
      },
    ]),
  );

  for (const { kind, posting } of plan.events.flatMap((e) => e.postings.map((posting) => ({ kind: e.kind, posting })))) {
    const named = posting.names[0];
    if (named === undefined) continue;
    const at = context.dayStart + posting.at;
    const scan = scanOf.get(plexForm(named), at, at) as number | undefined;
    const rows = scan === undefined ? [] : (deliveriesOf.all(scan) as DeliveryRow[]);
    for (const f of figures.values()) {
      f.requests += 1;
      const row = rows.find((r) => r.target === f.name);
      const taken = row?.deliveredAt != null && ["done", "confirming", "unconfirmed"].includes(row.state);
      if (row && taken) f.askedMs.push((row.deliveredAt as number) - at);
      else f.undelivered += 1;
      if (!f.confirms) continue;
      const confirmed = row && taken && row.state === "done" ? row.updatedAt - at : Infinity;
      if (confirmed !== Infinity) f.confirmedMs.push(confirmed);
      else if (row?.state === "unconfirmed") f.unconfirmed += 1;
      f.confirmedByKind.set(kind, [...(f.confirmedByKind.get(kind) ?? []), confirmed]);
    }
  }

  const importFolders = new Set(plan.events.filter((e) => e.imports).map((e) => e.folder));
  const changes = plan.events.filter((e) => importFolders.has(e.folder)).length;
  for (const f of figures.values()) {
    f.importFolderChanges = changes;
    if (!(SERVER_NAMES as string[]).includes(f.name)) continue;
    // The folders a call named that had an import; a refresh of a folder above them (a series', a library's) is one scan.
    const holdsImport = (folder: string) => [...importFolders].some((f) => f.startsWith(`${folder}/`));
    const counted = (call: string[]) => call.filter((folder) => importFolders.has(folder)).length || (call.some(holdsImport) ? 1 : 0);
    f.scans = context.scansOf(f.name as ServerName).reduce((n, call) => n + counted(call), 0);
  }
  return [...figures.values()];
}
