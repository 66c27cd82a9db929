import type { EnqueueOutcome, ScanRequest } from "../domain.js";
import type { Clock } from "../lib/clock.js";
import * as actions from "./actions.js";
import { DEFAULT_LEASE_MS, newOwnerId } from "./claim-owner.js";
import { Committer } from "./commit.js";
import { finishConfirmations, recordConfirming, saveConfirmProgress, type ConfirmFinish, type ConfirmProgress } from "./confirm-store.js";
import * as deliveries from "./deliveries.js";
import { DueReads } from "./due-reads.js";
import { enqueueRequests } from "./enqueue.js";
import type { DeliveryRecord, QueueEvent, QueueListener } from "./events.js";
import {
  dueFileChecks,
  recordFileChecks,
  type DueFileCheck,
  type FileCheckContext,
  type FileCheckResult,
  type FileCheckSummary,
} from "./file-checks.js";
import { normalizeFolder, separatorOf } from "./folder-key.js";
import { holdsDiffer, readHolds, replaceHolds, type HoldInput } from "./holds.js";
import { createPriorityOf, type PriorityOf } from "./priority.js";
import { defaultMaxWaitMs, type ScanQueueOptions } from "./scan-queue-options.js";
import type { DeliveryJob, ExpiredScan, LibraryRef } from "./types.js";

export { defaultMaxWaitMs, type ScanQueueOptions } from "./scan-queue-options.js";

/**
 * The durable, coalescing scan queue (SQLite), and the only writer of its
 * tables: every move of src/queue/lifecycle.ts is made by one of its methods,
 * each one transaction (or part of the caller's `batch`), and told to
 * `subscribe`rs after the commit. Every method is synchronous.
 */
export class ScanQueue extends DueReads {
  private readonly ctx: FileCheckContext;
  private readonly clock: Clock;
  private readonly priorityOf: PriorityOf;
  private readonly commits: Committer;
  private readonly ast: actions.ActionStatements;

  constructor(private readonly options: ScanQueueOptions) {
    super(options.db);
    this.clock = options.clock;
    this.commits = new Committer(options.db, options.logger);
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
   * before anything is claimed; serve's storage calls it (recover: false) so
   * a start on a full disk puts it off until the database writes again
   * (storage/queue-storage.ts).
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
    return this.transaction(() => {
      const { outcome, earliest } = enqueueRequests(this.ctx, this.priorityOf, requests, folders, now);
      if (earliest !== Infinity) this.tell({ type: "enqueued", at: now, dueAt: earliest, ...outcome });
      return outcome;
    });
  }

  /** Calls `listener` with every QueueEvent after its commit (src/queue/events.ts); returns the unsubscribe. */
  subscribe(listener: QueueListener): () => void {
    return this.commits.subscribe(listener);
  }

  /** Tells this queue's listeners the events of a commit the commit thread made (queue/thread/), as if it were this queue's own. */
  retell(events: readonly QueueEvent[]): void {
    this.commits.announce(events);
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
      const saved = saveConfirmProgress(this.cst, updates, now);
      if (saved > 0) this.tell({ type: "confirmation-progress", at: now, deliveries: saved });
    });
  }

  /** Ends confirmations (done or unconfirmed); their scans finish when nothing else is open. */
  recordConfirmed(finishes: ConfirmFinish[]): number {
    return this.transaction(() => {
      const ended = finishConfirmations(this.ctx, this.cst, finishes, this.clock.now());
      for (const event of ended) this.tell(event);
      return ended.length;
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
    this.commits.tell(event);
  }

  /** One transaction, or part of the one under way; events go out after the outermost commit (commit.ts). */
  private transaction<T>(fn: () => T): T {
    return this.commits.run(fn);
  }
}
