import type { Database, Statement } from "better-sqlite3";
import { finishIfComplete, type DeliveryContext } from "./deliveries.js";
import type { PlexItemRef } from "../targets/plex/library-items-db.js";
import type { FileRow } from "./scan-files.js";
import type { DeliveryJob, LibraryRef } from "./types.js";

/** How one library section of a confirming delivery stands; stored as JSON in scan_delivery.confirm. */
export interface SectionProgress {
  id: string;
  title: string;
  /** When the latest scan call (first or re-scan) was accepted. */
  scannedAt: number;
  rescanned: boolean;
  sawRefreshing?: boolean;
  /** Files the latest poll found not as expected (shown while waiting). */
  notConfirmed?: string[];
  /** Set once the section is settled. */
  result?: { kind: "confirmed" | "finished" | "unconfirmed"; items: PlexItemRef[]; notConfirmed: string[]; reason?: string };
}

export interface ConfirmProgressRecord {
  sections: SectionProgress[];
}

/** One confirming delivery, with what its scan named. */
export interface ConfirmingDelivery {
  deliveryId: number;
  scanId: number;
  target: string;
  folder: string;
  source: string;
  event: string;
  firstRequestedAt: number;
  progress: ConfirmProgressRecord;
  /** Imports (expected present) and deletions (expected gone), media-server path form. */
  files: string[];
  deletedFiles: string[];
}

/** How a confirmation ended, as recorded. */
export interface ConfirmFinish {
  deliveryId: number;
  scanId: number;
  state: "done" | "unconfirmed";
  /** Human text for the API and the page ("confirmed 12 s after the first request; …"). */
  detail: string;
  /** For unconfirmed: the missing files, shown where errors are. */
  error: string | null;
  progress: ConfirmProgressRecord & { confirmedAfterMs?: number };
}

export function prepareConfirmStatements(db: Database) {
  const p = <P extends unknown[] = unknown[]>(sql: string): Statement<P> => db.prepare<P>(sql);
  return {
    markConfirming: p<[string | null, number, string, number, number, string]>(
      `UPDATE scan_delivery SET state = 'confirming', attempts = attempts + 1, libraries = COALESCE(?, libraries), delivered_at = ?,
       confirm = ?, owner = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND state = 'delivering' AND owner = ?`,
    ),
    // Each Plex target has its own driver; the partial index holds only the deliveries being confirmed.
    listConfirming: p<[string, number]>(
      `SELECT d.id AS deliveryId, d.scan_id AS scanId, d.target AS target, d.confirm AS confirm, s.folder AS folder,
       s.source AS source, s.event AS event, s.first_requested_at AS firstRequestedAt
       FROM scan_delivery d INDEXED BY scan_delivery_confirming JOIN scan_queue s ON s.id = d.scan_id
       WHERE d.state = 'confirming' AND d.target = ? ORDER BY d.id LIMIT ?`,
    ),
    countConfirming: p<[string]>(
      "SELECT COUNT(*) AS n FROM scan_delivery INDEXED BY scan_delivery_confirming WHERE state = 'confirming' AND target = ?",
    ),
    filesOf: p<[number]>("SELECT path, deletion, seen FROM scan_file WHERE scan_id = ? ORDER BY path"),
    saveProgress: p<[string, number, number]>("UPDATE scan_delivery SET confirm = ?, updated_at = ? WHERE id = ? AND state = 'confirming'"),
    finish: p<[string, string, string, string | null, number, number]>(
      `UPDATE scan_delivery SET state = ?, confirm = ?, detail = ?, last_error = COALESCE(?, last_error), updated_at = ?
       WHERE id = ? AND state = 'confirming'`,
    ),
  };
}

export type ConfirmStatements = ReturnType<typeof prepareConfirmStatements>;

/** A delivery Plex accepted, to be confirmed: one section entry per library the folder resolved to. */
export function recordConfirming(
  ctx: DeliveryContext,
  cst: ConfirmStatements,
  job: DeliveryJob,
  libraries: LibraryRef[],
  now: number,
): boolean {
  const progress: ConfirmProgressRecord = {
    sections: libraries.map((l) => ({ id: l.id, title: l.title, scannedAt: now, rescanned: false })),
  };
  const { changes } = cst.markConfirming.run(JSON.stringify(libraries), now, JSON.stringify(progress), now, job.deliveryId, ctx.owner);
  return changes > 0;
}

export function listConfirming(cst: ConfirmStatements, target: string, limit: number): ConfirmingDelivery[] {
  const rows = cst.listConfirming.all(target, limit) as Array<
    Omit<ConfirmingDelivery, "progress" | "files" | "deletedFiles"> & { confirm: string }
  >;
  return rows.map(({ confirm, ...row }) => {
    const files = cst.filesOf.all(row.scanId) as FileRow[];
    return {
      ...row,
      progress: parseProgress(confirm),
      files: files.filter((f) => f.deletion === 0).map((f) => f.path),
      deletedFiles: files.filter((f) => f.deletion === 1).map((f) => f.path),
    };
  });
}

export function finishConfirming(ctx: DeliveryContext, cst: ConfirmStatements, finish: ConfirmFinish, now: number): boolean {
  const { changes } = cst.finish.run(finish.state, JSON.stringify(finish.progress), finish.detail, finish.error, now, finish.deliveryId);
  if (changes === 0) return false;
  finishIfComplete(ctx, finish.scanId, now);
  return true;
}

/** A record this version cannot read counts as no section: the delivery then settles as finished at once. */
function parseProgress(json: string | null): ConfirmProgressRecord {
  try {
    const value = JSON.parse(json ?? "null") as unknown;
    if (typeof value === "object" && value !== null && Array.isArray((value as ConfirmProgressRecord).sections)) {
      return value as ConfirmProgressRecord;
    }
  } catch {
    // fall through
  }
  return { sections: [] };
}
