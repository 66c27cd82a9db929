import type { Database, Statement } from "better-sqlite3";
import { finishIfComplete, type DeliveryContext } from "./deliveries.js";
import { parseLibraries } from "./rows.js";
import type { FileRow } from "./scan-files.js";
import type { QueueEvent } from "./events.js";
import type { DeliveryJob, LibraryRef } from "./types.js";

type ConfirmationEnded = Extract<QueueEvent, { type: "confirmation-ended" }>;

/**
 * The queue's side of confirmation, whatever the target: a delivery the
 * target accepted is held `confirming` until its target's driver ends it.
 * The driver keeps its own record of how the confirmation stands (stored as
 * JSON, read back as it was saved); the queue reads nothing in it but
 * `confirmedAfterMs`, shown once confirmed.
 */
export interface ConfirmingDelivery {
  deliveryId: number;
  scanId: number;
  target: string;
  folder: string;
  source: string;
  event: string;
  firstRequestedAt: number;
  /** When the target accepted the scan. */
  deliveredAt: number;
  /** The libraries the folder resolved to when it was delivered. */
  libraries: LibraryRef[];
  /** The driver's record as last saved; null before its first save (or when unreadable). */
  progress: object | null;
  /** Imports (expected present) and deletions (expected gone), media-server path form. */
  files: string[];
  deletedFiles: string[];
  /** Of `files`, those whose items are refreshed once found (sidecars, files replaced in place; docs/item-refresh.md). */
  refreshFiles: string[];
}

/** A driver's poll: its record of a delivery, and how it stands in words (shown while confirming). */
export interface ConfirmProgress {
  deliveryId: number;
  progress: object;
  detail: string;
  /** When the driver looks at this delivery next; unchanged when absent. */
  dueAt?: number;
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
  /** The driver's final record; `confirmedAfterMs` in it is shown as the time to confirmation. */
  progress: (object & { confirmedAfterMs?: number }) | null;
}

const CONFIRMING_COLUMNS = `d.id AS deliveryId, d.scan_id AS scanId, d.target AS target, d.confirm AS confirm, s.folder AS folder,
  s.source AS source, s.event AS event, s.first_requested_at AS firstRequestedAt, d.delivered_at AS deliveredAt, d.libraries AS libraries`;

export function prepareConfirmStatements(db: Database) {
  const p = <P extends unknown[] = unknown[]>(sql: string): Statement<P> => db.prepare<P>(sql);
  return {
    markConfirming: p<[string | null, number, number, number, number, string]>(
      `UPDATE scan_delivery SET state = 'confirming', attempts = attempts + 1, libraries = COALESCE(?, libraries), delivered_at = ?, due_at = ?,
       confirm = NULL, detail = NULL, last_error = NULL, owner = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND state = 'delivering' AND owner = ?`,
    ),
    // Each confirming target has its own driver; the partial index holds only the deliveries being confirmed.
    listConfirming: p<[string, number]>(
      `SELECT ${CONFIRMING_COLUMNS} FROM scan_delivery d INDEXED BY scan_delivery_confirming JOIN scan_queue s ON s.id = d.scan_id
       WHERE d.state = 'confirming' AND d.target = ? ORDER BY d.id LIMIT ?`,
    ),
    // A confirming delivery's due_at is when its driver looks at it next: a poll reads only those due.
    listConfirmingDue: p<[string, number, number]>(
      `SELECT ${CONFIRMING_COLUMNS} FROM scan_delivery d INDEXED BY scan_delivery_confirm_due JOIN scan_queue s ON s.id = d.scan_id
       WHERE d.state = 'confirming' AND d.target = ? AND d.due_at <= ? ORDER BY d.due_at, d.id LIMIT ?`,
    ),
    nextConfirmDue: p<[string]>(
      "SELECT MIN(due_at) AS at FROM scan_delivery INDEXED BY scan_delivery_confirm_due WHERE state = 'confirming' AND target = ?",
    ),
    countConfirming: p<[string]>(
      "SELECT COUNT(*) AS n FROM scan_delivery INDEXED BY scan_delivery_confirm_due WHERE state = 'confirming' AND target = ?",
    ),
    filesOf: p<[number]>("SELECT path, deletion, seen, refresh FROM scan_file WHERE scan_id = ? ORDER BY path"),
    saveProgress: p<[string, string, number | null, number, number]>(
      "UPDATE scan_delivery SET confirm = ?, detail = ?, due_at = COALESCE(?, due_at), updated_at = ? WHERE id = ? AND state = 'confirming'",
    ),
    // The target and folder come back for the event told after the commit.
    finish: p<[string, string | null, string, string | null, number, number]>(
      `UPDATE scan_delivery SET state = ?, confirm = ?, detail = ?, last_error = COALESCE(?, last_error), updated_at = ?
       WHERE id = ? AND state = 'confirming' RETURNING target, (SELECT folder FROM scan_queue WHERE id = scan_id) AS folder`,
    ),
  };
}

export type ConfirmStatements = ReturnType<typeof prepareConfirmStatements>;

/** A delivery the target accepted, held until its confirmation ends; the driver starts its record on its first poll. */
export function recordConfirming(
  ctx: DeliveryContext,
  cst: ConfirmStatements,
  job: DeliveryJob,
  libraries: LibraryRef[],
  now: number,
): boolean {
  return cst.markConfirming.run(JSON.stringify(libraries), now, now, now, job.deliveryId, ctx.owner).changes > 0;
}

type ConfirmingRow = Omit<ConfirmingDelivery, "progress" | "files" | "deletedFiles" | "refreshFiles" | "libraries"> & {
  confirm: string | null;
  libraries: string | null;
};

export function listConfirming(cst: ConfirmStatements, target: string, limit: number): ConfirmingDelivery[] {
  return withFiles(cst, cst.listConfirming.all(target, limit) as ConfirmingRow[]);
}

/** The deliveries to `target` whose driver's next look is due by `now`, the longest due first. */
export function listConfirmingDue(cst: ConfirmStatements, target: string, now: number, limit: number): ConfirmingDelivery[] {
  return withFiles(cst, cst.listConfirmingDue.all(target, now, limit) as ConfirmingRow[]);
}

function withFiles(cst: ConfirmStatements, rows: ConfirmingRow[]): ConfirmingDelivery[] {
  return rows.map(({ confirm, libraries, ...row }) => {
    const files = cst.filesOf.all(row.scanId) as Array<FileRow & { refresh: number }>;
    return {
      ...row,
      libraries: parseLibraries(libraries) ?? [],
      progress: parseRecord(confirm),
      files: files.filter((f) => f.deletion === 0).map((f) => f.path),
      deletedFiles: files.filter((f) => f.deletion === 1).map((f) => f.path),
      refreshFiles: files.filter((f) => f.deletion === 0 && f.refresh === 1).map((f) => f.path),
    };
  });
}

/** Stores the drivers' records of confirming deliveries (inside the caller's transaction); answers how many it saved. */
export function saveConfirmProgress(cst: ConfirmStatements, updates: readonly ConfirmProgress[], now: number): number {
  let saved = 0;
  for (const u of updates) saved += cst.saveProgress.run(JSON.stringify(u.progress), u.detail, u.dueAt ?? null, now, u.deliveryId).changes;
  return saved;
}

/**
 * Ends the confirmations of deliveries still confirming (inside the caller's
 * transaction); their scans finish when nothing else is open. Answers the
 * event of each it ended.
 */
export function finishConfirmations(
  ctx: DeliveryContext,
  cst: ConfirmStatements,
  finishes: readonly ConfirmFinish[],
  now: number,
): ConfirmationEnded[] {
  return finishes.flatMap((f) => {
    const record = f.progress === null ? null : JSON.stringify(f.progress);
    const ended = cst.finish.get(f.state, record, f.detail, f.error, now, f.deliveryId) as { target: string; folder: string } | undefined;
    if (!ended) return [];
    finishIfComplete(ctx, f.scanId, now);
    const after = f.progress?.confirmedAfterMs;
    const { deliveryId, scanId, state, error } = f;
    const event: ConfirmationEnded = { type: "confirmation-ended", at: now, deliveryId, scanId, state, error, ...ended };
    return [after !== undefined ? { ...event, confirmedAfterMs: after } : event];
  });
}

function parseRecord(json: string | null): object | null {
  try {
    const value = JSON.parse(json ?? "null") as unknown;
    return typeof value === "object" && value !== null ? value : null;
  } catch {
    return null;
  }
}
