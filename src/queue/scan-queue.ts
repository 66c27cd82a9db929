import { inTransaction } from "./storage/database.js";
import type { EnqueueOutcome, ScanRequest } from "../domain.js";
import type { Clock } from "../lib/clock.js";
import { coalesceRequest } from "./coalesce.js";
import * as deliveries from "./deliveries.js";
import { normalizeFolder, separatorOf } from "./folder-key.js";
import { createPriorityOf, type PriorityOf } from "./priority.js";
import { defaultMaxWaitMs, type ScanQueueOptions } from "./scan-queue-options.js";

export { defaultMaxWaitMs, type ScanQueueOptions } from "./scan-queue-options.js";
import { QueueReads } from "./views/queue-reads.js";
import { DEFAULT_LEASE_MS, newOwnerId } from "./claim-owner.js";
import { attachFiles } from "./scan-files.js";
import { recordOrigins } from "./scan-requests.js";
import { holdsDiffer, readHolds, replaceHolds, type HoldInput } from "./holds.js";
import {
  dueFileChecks,
  recordFileChecks,
  type DueFileCheck,
  type FileCheckContext,
  type FileCheckResult,
  type FileCheckSummary,
} from "./file-checks.js";
import type { DeliveryJob, ExpiredScan, LibraryRef } from "./types.js";
import { finishConfirming, recordConfirming, type ConfirmFinish, type ConfirmProgress } from "./confirm-store.js";
import * as actions from "./actions.js";
import { EventBuffer, type DeliveryRecord, type QueueEvent, type QueueListener } from "./events.js";

/**
 * The durable, coalescing scan queue (SQLite), and the only writer of its
 * tables: every move of src/queue/lifecycle.ts is made by one of its methods,
 * each one transaction (or part of the caller's `batch`), and told to
 * `subscribe`rs after the commit. Every method is synchronous.
 */
export class ScanQueue extends QueueReads {
  private readonly ctx: FileCheckContext;
  private readonly clock: Clock;
  private readonly priorityOf: PriorityOf;
  private readonly events: EventBuffer;
  private readonly ast: actions.ActionStatements;
  private depth = 0;

  constructor(private readonly options: ScanQueueOptions) {
    super(options.db, options.clock);
    this.clock = options.clock;
    this.events = new EventBuffer(options.logger);
    this.ast = actions.prepareActionStatements(options.db);
    this.priorityOf = createPriorityOf(options.priorities ?? {}, separatorOf);
    this.ctx = {
      st: this.st,
      fst: this.fst,
      rst: this.rst,
      gateFiles: options.fileChecks !== undefined,
      fileChecks: options.fileChecks ?? { maxChecks: 1, delayMs: 0, scanFolderOnExhaustion: true },
      targets: [...options.targets],
      delayMs: options.delayMs,
      maxWaitMs: options.maxWaitMs ?? defaultMaxWaitMs(options.delayMs),
      history: { done: 1_000, failed: 10_000, ...options.history },
      logger: options.logger,
      owner: options.owner ?? newOwnerId(),
      leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
      finishedSincePrune: 0,
    };
    if (options.recover ?? true) this.resumeInterrupted();
  }

  /**
   * Puts deliveries a stop or crash left `delivering` back to pending and
   * matches the deliveries to the configured targets. Runs once at start,
   * before anything is claimed; serve calls it itself (recover: false) so a
   * start on a full disk can put it off until the database writes again.
   */
  resumeInterrupted(): void {
    const reset = this.transaction(() => deliveries.recoverInterrupted(this.ctx, this.clock.now()));
    if (reset > 0) this.options.logger.info({ deliveries: reset }, "resumed deliveries interrupted by a stop or crash");
  }

  /** Throws a TypeError, before anything is written, when a request's folder cannot be queued. */
  static checkRequests(requests: ScanRequest[]): string[] {
    return requests.map((r) => normalizeFolder(r.folder));
  }

  /** Commits every request in one transaction before returning; throws (committing nothing) on a bad folder. */
  enqueue(requests: ScanRequest[]): EnqueueOutcome {
    const folders = ScanQueue.checkRequests(requests);
    const now = this.clock.now();
    const queued = new Set<string>();
    const covered = new Set<string>();
    let earliest = Infinity;
    return this.transaction(() => {
      requests.forEach((request, i) => {
        const folder = folders[i] as string;
        const delayMs = request.delayMs ?? this.ctx.delayMs;
        const result = coalesceRequest(
          this.ctx,
          request.scanFolder !== false,
          {
            folder,
            priority: request.priority ?? this.priorityOf(folder),
            requests: 1,
            source: request.source,
            event: request.event,
            firstRequestedAt: now,
            lastRequestedAt: now,
            dueAt: now + delayMs,
          },
          now,
          // A source's longer DELAY brings its own cap, or SERVER_SCAN_DELAY's would cut it short.
          delayMs === this.ctx.delayMs ? this.ctx.maxWaitMs : Math.max(this.ctx.maxWaitMs, defaultMaxWaitMs(delayMs)),
        );
        const intent = { deletion: request.deletion ?? false, refresh: request.refresh ?? false };
        attachFiles(this.ctx.fst, result.scanId, request.files ?? [], intent, this.ctx.gateFiles, now);
        const origins = request.origins ?? (request.files?.length ? request.files : [folder]).map((p) => ({ path: p, mapped: p }));
        recordOrigins(this.rst, result.scanId, origins, request.source, request.event, now);
        (result.kind === "covered" ? covered : queued).add(folder);
        earliest = Math.min(earliest, result.dueAt);
      });
      const outcome = { queued: [...queued], covered: [...covered].filter((f) => !queued.has(f)) };
      if (earliest !== Infinity) this.tell({ type: "enqueued", at: now, dueAt: earliest, ...outcome });
      return outcome;
    });
  }

  /** Calls `listener` with every QueueEvent after its commit (src/queue/events.ts); returns the unsubscribe. */
  subscribe(listener: QueueListener): () => void {
    return this.events.subscribe(listener);
  }

  // The scheduler's side. Each call is one transaction, or part of the caller's batch.

  /** Runs several calls in one transaction: one commit for a tick's outcomes or its claims. */
  batch<T>(fn: () => T): T {
    return this.transaction(fn);
  }

  claimDue(target: string, limit: number): DeliveryJob[] {
    return this.transaction(() => {
      const now = this.clock.now();
      const jobs = deliveries.claimDue(this.ctx, target, now, limit);
      if (jobs.length > 0) this.tell({ type: "claimed", at: now, target, jobs });
      return jobs;
    });
  }

  /** The record* calls answer false when the claim is no longer ours (its lease ran out and was released). */
  /** `detail`: what the delivery did beyond the scan call, shown with it ("refreshed 1 item(s); …"). */
  recordDone(job: DeliveryJob, libraries: LibraryRef[], detail?: string): boolean {
    return this.record(job, "done", undefined, (now) => deliveries.recordDone(this.ctx, job, libraries, now, detail));
  }

  /**
   * A delivery the target accepted: `done`, or `confirming` when the
   * after-scan work (confirmation, analyze, empty trash) follows it.
   */
  recordDelivered(job: DeliveryJob, libraries: LibraryRef[], confirming: boolean, detail?: string): boolean {
    if (!confirming) return this.recordDone(job, libraries, detail);
    return this.record(job, "confirming", undefined, (now) => recordConfirming(this.ctx, this.cst, job, libraries, now));
  }

  // The confirming hold, whatever the target: its driver (e.g. src/delivery/after-scan/driver.ts) ends it.

  /** Stores the drivers' records of confirming deliveries (one transaction for a whole poll). */
  saveConfirmProgress(updates: ConfirmProgress[]): void {
    this.transaction(() => {
      const now = this.clock.now();
      let saved = 0;
      for (const u of updates) saved += this.cst.saveProgress.run(JSON.stringify(u.progress), u.detail, now, u.deliveryId).changes;
      if (saved > 0) this.tell({ type: "confirmation-progress", at: now, deliveries: saved });
    });
  }

  /** Ends confirmations (done or unconfirmed); their scans finish when nothing else is open. */
  recordConfirmed(finishes: ConfirmFinish[]): number {
    return this.transaction(() => {
      const now = this.clock.now();
      let recorded = 0;
      for (const f of finishes) {
        const ended = finishConfirming(this.ctx, this.cst, f, now);
        if (!ended) continue;
        recorded += 1;
        const after = f.progress?.confirmedAfterMs;
        const { deliveryId, scanId, state, error } = f;
        this.tell({
          type: "confirmation-ended",
          at: now,
          deliveryId,
          scanId,
          state,
          error,
          ...ended,
          ...(after !== undefined ? { confirmedAfterMs: after } : {}),
        });
      }
      return recorded;
    });
  }

  recordRetry(job: DeliveryJob, retryAt: number, error: string, libraries: LibraryRef[] | null = null): boolean {
    return this.record(job, "retry", error, (now) => deliveries.recordRetry(this.ctx, job, retryAt, error, libraries, now));
  }

  recordFailed(job: DeliveryJob, error: string, libraries: LibraryRef[] | null = null): boolean {
    return this.record(job, "failed", error, (now) => deliveries.recordFailed(this.ctx, job, error, libraries, now));
  }

  recordSkipped(job: DeliveryJob, reason: string): boolean {
    return this.record(job, "skipped", reason, (now) => deliveries.recordSkipped(this.ctx, job, reason, now));
  }

  /** Gives a claim back unsent: pending as it was, no attempt counted (false when it is no longer ours). */
  releaseClaim(job: DeliveryJob): boolean {
    return this.transaction(() => {
      const now = this.clock.now();
      const ours = deliveries.releaseClaim(this.ctx, job, now);
      if (ours) this.tell({ type: "claim-released", at: now, job });
      return ours;
    });
  }

  /** Extends the lease of every claim this process holds. */
  renewLeases(): number {
    return this.transaction(() => deliveries.renewLeases(this.ctx, this.clock.now()));
  }

  /** Puts claims whose lease ran out back to pending; returns them. */
  releaseExpiredLeases(): Array<{ id: number; owner: string }> {
    return this.transaction(() => {
      const now = this.clock.now();
      const released = deliveries.releaseExpiredLeases(this.ctx, now);
      if (released.length > 0) this.tell({ type: "leases-released", at: now, deliveries: released.length });
      return released;
    });
  }

  // File-exists checks (driven by the scheduler).

  /** Scans past their debounce whose imports are due to be looked for, oldest check first. */
  dueFileChecks(limit: number): DueFileCheck[] {
    return dueFileChecks(this.ctx, this.clock.now(), limit);
  }

  /** Records a check round; scans it released are announced to the scheduler. */
  recordFileChecks(due: DueFileCheck[], results: FileCheckResult[]): FileCheckSummary {
    return this.transaction(() => {
      const now = this.clock.now();
      const summary = recordFileChecks(this.ctx, due, results, now);
      const { ready, exhausted, failed, releasedDueAt } = summary;
      this.tell({
        type: "files-checked",
        at: now,
        ...(releasedDueAt !== Infinity ? { dueAt: releasedDueAt } : {}),
        ready,
        exhausted: exhausted.map((e) => e.folder),
        failed: failed.map((f) => f.folder),
      });
      return summary;
    });
  }

  /** Gives up waiting deliveries of scans first requested at or before `cutoff`. */
  expireWaiting(cutoff: number, reason: string): ExpiredScan[] {
    return this.transaction(() => {
      const now = this.clock.now();
      const scans = deliveries.expireWaiting(this.ctx, cutoff, reason, now);
      if (scans.length > 0) this.tell({ type: "scans-expired", at: now, scans, reason });
      return scans;
    });
  }

  // The dashboard's actions (the scheduler hears of scan-now and retry through their event's dueAt).

  /** Makes a waiting scan due now: skips the debounce, the backoff and the wait for its files. */
  scanNow(id: number): actions.ActionResult {
    return this.act("scan-now", id, (now) => actions.scanNow(this.ast, id, now), true);
  }

  /** Sends a failed or unconfirmed scan again to the targets it failed on. */
  retry(id: number): actions.ActionResult {
    return this.act("retry", id, (now) => actions.retryScan(this.ast, id, now), true);
  }

  /** Cancels a scan that has not started delivering; deliveries already done stay done. */
  cancel(id: number): actions.ActionResult {
    return this.act("cancel", id, (now) => actions.cancelScan(this.ast, id, now), false);
  }

  /**
   * Makes the stored holds (scan_hold) what holds the deliveries back now; a
   * hold already stored keeps its start. Writes only when they changed;
   * answers whether they did.
   */
  recordHolds(holds: readonly HoldInput[]): boolean {
    if (!holdsDiffer(readHolds(this.hst), holds)) return false;
    return this.transaction(() => {
      const now = this.clock.now();
      replaceHolds(this.hst, holds, now);
      this.tell({ type: "holds-changed", at: now, holds: holds.length });
      return true;
    });
  }

  /** Deletes finished scans older than `cutoff` (epoch ms); returns how many. */
  clearHistory(cutoff: number): number {
    return this.transaction(() => {
      const scans = actions.clearHistory(this.ast, cutoff);
      if (scans > 0) this.tell({ type: "history-cleared", at: this.clock.now(), scans });
      return scans;
    });
  }

  private act(action: "scan-now" | "retry" | "cancel", id: number, fn: (now: number) => actions.ActionResult, due: boolean) {
    return this.transaction(() => {
      const now = this.clock.now();
      const result = fn(now);
      if (result.ok) this.tell({ type: "action", at: now, action, scanId: id, ...(due ? { dueAt: now } : {}) });
      return result;
    });
  }

  private record(job: DeliveryJob, record: DeliveryRecord, error: string | undefined, fn: (now: number) => boolean): boolean {
    return this.transaction(() => {
      const now = this.clock.now();
      const ours = fn(now);
      if (ours) this.tell({ type: "delivery-recorded", at: now, job, record, ...(error !== undefined ? { error } : {}) });
      return ours;
    });
  }

  private tell(event: QueueEvent): void {
    this.events.hold(event);
  }

  /**
   * One transaction, or part of the one under way; the events of the
   * outermost call go out once it commits and are dropped if it rolls back.
   * (Inside a transaction the queue did not open, they go out when the call
   * returns: share a transaction through `batch`, never around the queue.)
   */
  private transaction<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.depth = 1;
    let result: T;
    try {
      result = inTransaction(this.options.db, fn);
    } catch (error) {
      this.events.discard();
      throw error;
    } finally {
      this.depth = 0;
    }
    this.events.publish();
    return result;
  }
}
