import { finishIfComplete, type DeliveryContext } from "./deliveries.js";
import { markSeen, type FileStatements } from "./scan-files.js";

/** SERVER_MAX_FILE_CHECKS, SERVER_FILE_CHECK_DELAY and SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION, in queue terms. */
export interface FileCheckPolicy {
  /** Check rounds before a scan's files count as never appearing (≥ 1). */
  maxChecks: number;
  /** Wait between two rounds of one scan. */
  delayMs: number;
  /** After the last round: scan the folder anyway (true) or fail the scan (false). */
  scanFolderOnExhaustion: boolean;
}

export interface FileCheckContext extends DeliveryContext {
  fst: FileStatements;
  fileChecks: FileCheckPolicy;
}

/** A scan whose named imports are due to be looked for. */
export interface DueFileCheck {
  scanId: number;
  folder: string;
  /** Rounds already made. */
  checks: number;
  /** Imports not seen yet, media-server paths. */
  files: string[];
}

export interface FileCheckResult {
  scanId: number;
  /** The files of this round that are visible now. */
  seen: string[];
}

export interface FileCheckSummary {
  ready: string[];
  /** Folders scanned anyway after the last round, with the files that never appeared. */
  exhausted: Array<{ folder: string; missing: string[] }>;
  /** Folders failed after the last round. */
  failed: Array<{ folder: string; missing: string[] }>;
  /** Earliest due time of the deliveries this released (Infinity when none). */
  releasedDueAt: number;
}

export function dueFileChecks(ctx: FileCheckContext, now: number, limit: number): DueFileCheck[] {
  const scans = ctx.fst.dueChecks.all(now, now, limit) as Array<{ id: number; folder: string; checks: number }>;
  return scans.map((scan) => ({
    scanId: scan.id,
    folder: scan.folder,
    checks: scan.checks,
    files: (ctx.fst.filesOf.all(scan.id) as Array<{ path: string; deletion: number; seen: number }>)
      .filter((f) => f.deletion === 0 && f.seen === 0)
      .map((f) => f.path),
  }));
}

/**
 * Records one round: seen files are remembered (a later round does not look
 * for them again); a scan with nothing left to see is released to its
 * deliveries; a scan out of rounds is released anyway or failed, by policy.
 */
export function recordFileChecks(ctx: FileCheckContext, due: DueFileCheck[], results: FileCheckResult[], now: number): FileCheckSummary {
  const seenBy = new Map(results.map((r) => [r.scanId, new Set(r.seen)]));
  const summary: FileCheckSummary = { ready: [], exhausted: [], failed: [], releasedDueAt: Infinity };
  for (const scan of due) {
    const seen = seenBy.get(scan.scanId) ?? new Set<string>();
    markSeen(ctx.fst, scan.scanId, [...seen]);
    const missing = scan.files.filter((f) => !seen.has(f));
    const checks = scan.checks + 1;
    if (missing.length === 0) {
      release(ctx, scan.scanId, null, now);
      summary.ready.push(scan.folder);
    } else if (checks < ctx.fileChecks.maxChecks) {
      ctx.fst.countChecked.run(checks, now + ctx.fileChecks.delayMs, scan.scanId);
      continue;
    } else if (ctx.fileChecks.scanFolderOnExhaustion) {
      release(ctx, scan.scanId, `scanned the folder anyway: ${describeMissing(missing, checks)}`, now);
      summary.exhausted.push({ folder: scan.folder, missing });
    } else {
      ctx.fst.failWaiting.run(`not scanned: ${describeMissing(missing, checks)}`, now, scan.scanId);
      ctx.fst.countChecked.run(checks, now, scan.scanId);
      finishIfComplete(ctx, scan.scanId, now);
      summary.failed.push({ folder: scan.folder, missing });
      continue;
    }
    summary.releasedDueAt = Math.min(summary.releasedDueAt, now);
  }
  return summary;
}

function release(ctx: FileCheckContext, scanId: number, detail: string | null, now: number): void {
  ctx.fst.setFilesReady.run(detail, scanId);
  ctx.fst.releaseDeliveries.run(now, scanId);
}

function describeMissing(missing: string[], checks: number): string {
  const shown = missing.slice(0, 5).join(", ") + (missing.length > 5 ? `, … (${missing.length} in all)` : "");
  return `${missing.length === 1 ? "a file" : `${missing.length} files`} never appeared after ${checks} check${checks === 1 ? "" : "s"}: ${shown}`;
}
