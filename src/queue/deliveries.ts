import type { Logger } from "../lib/logger.js";
import { reopenScan, type CoalesceContext } from "./coalesce.js";
import type { ScanRow } from "./rows.js";
import { DELIVERY_STATES, finishedScanTransition, UNFINISHED_DELIVERY_STATES, type DeliveryState } from "./lifecycle.js";
import type { DeliveryJob, ExpiredScan, LibraryRef } from "./types.js";

/** How many finished scans the history keeps; older ones are pruned. */
export interface HistoryLimits {
  /** Done scans, and as many unconfirmed ones (counted apart). */
  done: number;
  failed: number;
}

export interface DeliveryContext extends CoalesceContext {
  history: HistoryLimits;
  logger: Logger;
  /** Who claims: this process. A claim is recorded only by its owner. */
  owner: string;
  /** How long a claim holds without renewal before it goes back to pending. */
  leaseMs: number;
  /** Finishes since the history was last pruned (pruning is amortised). */
  finishedSincePrune: number;
}

// Pruning looks up the N-th newest finished scan; doing it on every finish
// would cost an index walk of N rows per delivery while draining a backlog.
// So it runs every tenth of the smaller limit (at most every 100 finishes):
// the history holds between `keep` and `keep` + that many scans.
function pruneInterval(history: HistoryLimits): number {
  return Math.max(1, Math.min(100, Math.floor(Math.min(history.done, history.failed) / 10)));
}

/** Marks up to `limit` due deliveries of `target` as delivering (ours, leased) and returns them, best priority first. */
export function claimDue(ctx: DeliveryContext, target: string, now: number, limit: number): DeliveryJob[] {
  const jobs: DeliveryJob[] = [];
  let priority = Number.MIN_SAFE_INTEGER;
  while (jobs.length < limit) {
    const next = (ctx.st.nextPriority.get(target, priority) as { priority: number | null }).priority;
    if (next === null) break;
    priority = next;
    jobs.push(...(ctx.st.claimable.all(target, priority, now, limit - jobs.length) as DeliveryJob[]));
  }
  for (const job of jobs) {
    Object.assign(job, namedFilesOf(ctx, job.scanId), { scanFolder: Boolean(job.scanFolder) });
    ctx.st.markDelivering.run(ctx.owner, now + ctx.leaseMs, now, job.deliveryId);
    // From here on new requests must not merge into it: the target may already be scanning.
    ctx.st.closeScan.run(job.scanId);
  }
  return jobs;
}

/** Extends the leases of every claim this process holds. */
export function renewLeases(ctx: DeliveryContext, now: number): number {
  return ctx.st.renewLeases.run(now + ctx.leaseMs, ctx.owner).changes;
}

/**
 * Claims whose lease ran out (their owner died, hung, or could not record
 * the outcome) go back to pending, while the service runs.
 */
export function releaseExpiredLeases(ctx: DeliveryContext, now: number): Array<{ id: number; owner: string }> {
  const expired = ctx.st.expiredLeases.all(now, ctx.owner) as Array<{ id: number; scanId: number; owner: string }>;
  for (const claim of expired) {
    ctx.st.releaseLease.run(now, claim.id);
    reopenIfUntouched(ctx, claim.scanId, now);
  }
  return expired.map(({ id, owner }) => ({ id, owner }));
}

/**
 * A claim given back unsent (an anchor went missing right before the scan
 * call): pending again as before it was claimed, no attempt counted, and its
 * scan open to new requests again when nothing of it went out.
 */
export function releaseClaim(ctx: DeliveryContext, job: DeliveryJob, now: number): boolean {
  if (ctx.st.releaseClaim.run(now, job.deliveryId, ctx.owner).changes === 0) return false;
  reopenIfUntouched(ctx, job.scanId, now);
  return true;
}

/** Whether the outcome was recorded: false when the claim is no longer ours (its lease was released). */
export function recordDone(ctx: DeliveryContext, job: DeliveryJob, libraries: LibraryRef[], now: number, detail?: string): boolean {
  if (ctx.st.markDone.run(JSON.stringify(libraries), now, detail ?? null, now, job.deliveryId, ctx.owner).changes === 0) return false;
  finishIfComplete(ctx, job.scanId, now);
  return true;
}

export function recordRetry(
  ctx: DeliveryContext,
  job: DeliveryJob,
  retryAt: number,
  error: string,
  libraries: LibraryRef[] | null,
  now: number,
): boolean {
  const { changes } = ctx.st.markRetry.run(retryAt, retryAt, error, libraries && JSON.stringify(libraries), now, job.deliveryId, ctx.owner);
  if (changes === 0) return false;
  reopenIfUntouched(ctx, job.scanId, now);
  return true;
}

export function recordFailed(ctx: DeliveryContext, job: DeliveryJob, error: string, libraries: LibraryRef[] | null, now: number): boolean {
  const { changes } = ctx.st.markFailed.run(error, libraries && JSON.stringify(libraries), now, job.deliveryId, ctx.owner);
  if (changes === 0) return false;
  finishIfComplete(ctx, job.scanId, now);
  return true;
}

/** The target has no library for the folder: it is left out of this scan, visibly. */
export function recordSkipped(ctx: DeliveryContext, job: DeliveryJob, reason: string, now: number): boolean {
  if (ctx.st.markSkipped.run(reason, now, job.deliveryId, ctx.owner).changes === 0) return false;
  finishIfComplete(ctx, job.scanId, now);
  return true;
}

/**
 * The files a target may narrow the scan to: the imports, and only when the
 * scan deleted nothing (a deletion needs the folder looked at).
 */
function namedFilesOf(ctx: DeliveryContext, scanId: number): Pick<DeliveryJob, "files" | "refresh"> {
  const files = ctx.st.importsOf.all(scanId) as Array<{ path: string; deletion: number; refresh: number }>;
  const refresh = files.filter((f) => f.refresh === 1).map((f) => f.path);
  return { files: files.some((f) => f.deletion === 1) ? [] : files.map((f) => f.path), refresh };
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
 * At start-up, under the instance lock, every claim left `delivering` belongs
 * to a process that is gone: it was never acknowledged to us, so it goes back
 * to waiting, and scans with nothing delivered reopen. Targets added to the
 * config since get their deliveries.
 */
export function recoverInterrupted(ctx: DeliveryContext, now: number): number {
  const { changes } = ctx.st.resetDelivering.run(now);
  ctx.st.releaseAuthHolds.run(now);
  for (const target of ctx.targets) ctx.st.addMissingDeliveries.run(target, now);
  const dropped = ctx.st.dropRemovedTargets.all("target removed from the config", now, JSON.stringify(ctx.targets)) as Array<{
    scanId: number;
  }>;
  for (const scanId of new Set(dropped.map((d) => d.scanId))) finishIfComplete(ctx, scanId, now);
  for (const { id } of ctx.st.reopenable.all() as Array<{ id: number }>) reopenIfUntouched(ctx, id, now);
  return changes;
}

function reopenIfUntouched(ctx: DeliveryContext, scanId: number, now: number): void {
  const counts = deliveryCounts(ctx, scanId);
  if (counts.pending + counts.waiting < counts.total) return;
  const scan = ctx.st.scanById.get(scanId) as ScanRow | undefined;
  if (scan?.state === "closed") reopenScan(ctx, scan, now);
}

export function finishIfComplete(ctx: DeliveryContext, scanId: number, now: number): void {
  const counts = deliveryCounts(ctx, scanId);
  if (UNFINISHED_DELIVERY_STATES.some((s) => counts[s] > 0)) return;
  ctx.st.setScanState.run(finishedScanTransition(counts).to, now, scanId);
  ctx.finishedSincePrune += 1;
  if (ctx.finishedSincePrune >= pruneInterval(ctx.history)) {
    ctx.finishedSincePrune = 0;
    pruneHistory(ctx, "done", ctx.history.done);
    // Unconfirmed scans were delivered (Plex accepted them); they are kept like done ones.
    pruneHistory(ctx, "unconfirmed", ctx.history.done);
    pruneHistory(ctx, "failed", ctx.history.failed);
  }
}

function pruneHistory(ctx: DeliveryContext, state: "done" | "unconfirmed" | "failed", keep: number): void {
  const row = ctx.st.finishedCutoff.get(state, keep - 1) as { at: number } | undefined;
  if (!row) return;
  ctx.st.pruneDeliveries.run(state, row.at);
  const { changes } = ctx.st.pruneScans.run(state, row.at);
  if (changes > 0 && state === "failed") {
    ctx.logger.warn({ pruned: changes, kept: keep }, "dropped the oldest failed scans from the history");
  }
}

function deliveryCounts(ctx: DeliveryContext, scanId: number): Record<DeliveryState | "total", number> {
  const counts = { total: 0, ...Object.fromEntries(DELIVERY_STATES.map((s) => [s, 0])) } as Record<DeliveryState | "total", number>;
  for (const row of ctx.st.deliveryStates.all(scanId) as Array<{ state: DeliveryState; n: number }>) {
    counts[row.state] = row.n;
    counts.total += row.n;
  }
  return counts;
}
