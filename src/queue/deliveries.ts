import type { Logger } from "../lib/logger.js";
import { reopenScan, type CoalesceContext } from "./coalesce.js";
import type { ScanRow } from "./rows.js";
import type { DeliveryJob, ExpiredScan, LibraryRef } from "./types.js";

/** How many finished scans the history keeps; older ones are pruned. */
export interface HistoryLimits {
  done: number;
  failed: number;
}

export interface DeliveryContext extends CoalesceContext {
  history: HistoryLimits;
  logger: Logger;
}

/** Marks up to `limit` due deliveries of `target` as delivering and returns them, best priority first. */
export function claimDue(ctx: DeliveryContext, target: string, now: number, limit: number): DeliveryJob[] {
  const jobs = ctx.st.claimable.all(target, now, limit) as DeliveryJob[];
  for (const job of jobs) {
    ctx.st.markDelivering.run(now, job.deliveryId);
    // From here on new requests must not merge into it: the target may already be scanning.
    ctx.st.closeScan.run(job.scanId);
  }
  return jobs;
}

export function recordDone(ctx: DeliveryContext, job: DeliveryJob, libraries: LibraryRef[], now: number): void {
  ctx.st.markDone.run(JSON.stringify(libraries), now, job.deliveryId);
  finishIfComplete(ctx, job.scanId, now);
}

export function recordRetry(
  ctx: DeliveryContext,
  job: DeliveryJob,
  retryAt: number,
  error: string,
  libraries: LibraryRef[] | null,
  now: number,
): void {
  ctx.st.markRetry.run(retryAt, retryAt, error, libraries && JSON.stringify(libraries), now, job.deliveryId);
  reopenIfUntouched(ctx, job.scanId, now);
}

export function recordFailed(ctx: DeliveryContext, job: DeliveryJob, error: string, libraries: LibraryRef[] | null, now: number): void {
  ctx.st.markFailed.run(error, libraries && JSON.stringify(libraries), now, job.deliveryId);
  finishIfComplete(ctx, job.scanId, now);
}

/** Fails every waiting delivery of scans first requested at or before `cutoff`; deliveries in flight finish first. */
export function expireWaiting(ctx: DeliveryContext, cutoff: number, reason: string, now: number): ExpiredScan[] {
  const scans = ctx.st.waitingSince.all(cutoff) as ScanRow[];
  for (const scan of scans) {
    ctx.st.expireDeliveries.run(`${reason}; last error: `, now, scan.id);
    finishIfComplete(ctx, scan.id, now);
  }
  return scans.map((s) => ({ folder: s.folder, firstRequestedAt: s.first_requested_at }));
}

/**
 * After a crash, deliveries left `delivering` were never acknowledged by us:
 * they go back to waiting, and scans with nothing delivered reopen.
 */
export function recoverInterrupted(ctx: DeliveryContext, now: number): number {
  const { changes } = ctx.st.resetDelivering.run(now);
  for (const target of ctx.targets) ctx.st.addMissingDeliveries.run(target, now);
  for (const { id } of ctx.st.reopenable.all() as Array<{ id: number }>) reopenIfUntouched(ctx, id, now);
  return changes;
}

function reopenIfUntouched(ctx: DeliveryContext, scanId: number, now: number): void {
  const counts = deliveryCounts(ctx, scanId);
  if (counts.delivering + counts.done + counts.failed > 0) return;
  const scan = ctx.st.scanById.get(scanId) as ScanRow | undefined;
  if (scan?.state === "closed") reopenScan(ctx, scan, now);
}

function finishIfComplete(ctx: DeliveryContext, scanId: number, now: number): void {
  const counts = deliveryCounts(ctx, scanId);
  if (counts.pending + counts.delivering > 0) return;
  const state = counts.failed > 0 ? "failed" : "done";
  ctx.st.setScanState.run(state, now, scanId);
  pruneHistory(ctx, state, state === "done" ? ctx.history.done : ctx.history.failed);
}

function pruneHistory(ctx: DeliveryContext, state: "done" | "failed", keep: number): void {
  const row = ctx.st.finishedCutoff.get(state, keep - 1) as { at: number } | undefined;
  if (!row) return;
  ctx.st.pruneDeliveries.run(state, row.at);
  const { changes } = ctx.st.pruneScans.run(state, row.at);
  if (changes > 0 && state === "failed") {
    ctx.logger.warn({ pruned: changes, kept: keep }, "dropped the oldest failed scans from the history");
  }
}

function deliveryCounts(ctx: DeliveryContext, scanId: number) {
  const counts = { pending: 0, delivering: 0, done: 0, failed: 0 };
  for (const row of ctx.st.deliveryStates.all(scanId) as Array<{ state: keyof typeof counts; n: number }>) {
    counts[row.state] = row.n;
  }
  return counts;
}
