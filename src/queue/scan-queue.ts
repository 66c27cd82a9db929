import type { Database } from "better-sqlite3";
import { inTransaction } from "./database.js";
import type { EnqueueOutcome, ScanRequest } from "../domain.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import { coalesceRequest } from "./coalesce.js";
import * as deliveries from "./deliveries.js";
import { normalizeFolder, separatorOf } from "./folder-key.js";
import { createPriorityOf, type PriorityOf, type PriorityRules } from "./priority.js";
import { QueueReads } from "./queue-reads.js";
import { DEFAULT_LEASE_MS, newOwnerId } from "./claim-owner.js";
import { attachFiles } from "./scan-files.js";
import {
  dueFileChecks,
  recordFileChecks,
  type DueFileCheck,
  type FileCheckContext,
  type FileCheckPolicy,
  type FileCheckResult,
  type FileCheckSummary,
} from "./file-checks.js";
import type { DeliveryJob, ExpiredScan, LibraryRef } from "./types.js";
import { finishConfirming, recordConfirming, type ConfirmFinish, type ConfirmProgressRecord } from "./confirm-store.js";

export interface ScanQueueOptions {
  db: Database;
  clock: Clock;
  /** Target names; every scan gets one delivery per target. */
  targets: string[];
  /** Trailing debounce per folder (SERVER_SCAN_DELAY × 1000). */
  delayMs: number;
  /** Cap of the debounce from a scan's first request; see defaultMaxWaitMs. */
  maxWaitMs?: number;
  /** SERVER_SCAN_PRIORITIES. */
  priorities?: PriorityRules;
  logger: Logger;
  /** Finished scans kept for `recent()`: 1,000 done and 10,000 failed by default. */
  history?: Partial<deliveries.HistoryLimits>;
  /**
   * Reset deliveries a crash left `delivering` (default true). Only the
   * process that delivers, holding the instance lock, may do it; a read-only
   * inspector passes false.
   */
  recover?: boolean;
  /** Who this process is in claims (default: host, pid and a random tag). */
  owner?: string;
  /** How long a claim holds without renewal (default 2 min; the scheduler renews every 30 s). */
  leaseMs?: number;
  /** File-exists checks: when set, named imports hold their scan until they are visible. */
  fileChecks?: FileCheckPolicy;
}

/**
 * Default cap of the trailing debounce: ten delays, but never more than 30
 * minutes (nor less than one delay). With plex_autoscan's 180 s delay a folder
 * that keeps receiving files is still scanned every 30 minutes.
 */
export function defaultMaxWaitMs(delayMs: number): number {
  return Math.max(delayMs, Math.min(10 * delayMs, 30 * 60_000));
}

type Listener = (earliestDueAt: number) => void;

/** The durable, coalescing scan queue (SQLite). Every method is synchronous. */
export class ScanQueue extends QueueReads {
  private readonly ctx: FileCheckContext;
  private readonly clock: Clock;
  private readonly priorityOf: PriorityOf;
  private readonly listeners = new Set<Listener>();

  constructor(private readonly options: ScanQueueOptions) {
    super(options.db);
    this.clock = options.clock;
    this.priorityOf = createPriorityOf(options.priorities ?? {}, separatorOf);
    this.ctx = {
      st: this.st,
      fst: this.fst,
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
    this.transaction(() => {
      requests.forEach((request, i) => {
        const folder = folders[i] as string;
        const result = coalesceRequest(
          this.ctx,
          {
            folder,
            priority: this.priorityOf(folder),
            requests: 1,
            source: request.source,
            event: request.event,
            firstRequestedAt: now,
            lastRequestedAt: now,
            dueAt: now + this.ctx.delayMs,
          },
          now,
        );
        attachFiles(this.ctx.fst, result.scanId, request.files ?? [], request.deletion ?? false, this.ctx.gateFiles, now);
        (result.kind === "covered" ? covered : queued).add(folder);
        earliest = Math.min(earliest, result.dueAt);
      });
    });
    if (earliest !== Infinity) this.notify(earliest);
    return { queued: [...queued], covered: [...covered].filter((f) => !queued.has(f)) };
  }

  /** Calls `listener` after each enqueue with the earliest due time it produced. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // The scheduler's side. Each call is one transaction, or part of the caller's batch.

  /** Runs several calls in one transaction: one commit for a tick's outcomes or its claims. */
  batch<T>(fn: () => T): T {
    return this.transaction(fn);
  }

  claimDue(target: string, limit: number): DeliveryJob[] {
    return this.transaction(() => deliveries.claimDue(this.ctx, target, this.clock.now(), limit));
  }

  /** The record* calls answer false when the claim is no longer ours (its lease ran out and was released). */
  recordDone(job: DeliveryJob, libraries: LibraryRef[]): boolean {
    return this.transaction(() => deliveries.recordDone(this.ctx, job, libraries, this.clock.now()));
  }

  /**
   * A delivery the target accepted: `done`, or `confirming` when the
   * after-scan work (confirmation, analyze, empty trash) follows it.
   */
  recordDelivered(job: DeliveryJob, libraries: LibraryRef[], confirming: boolean): boolean {
    if (!confirming) return this.recordDone(job, libraries);
    return this.transaction(() => recordConfirming(this.ctx, this.cst, job, libraries, this.clock.now()));
  }

  // Confirmation (driven by src/queue/confirmations.ts).

  /** Stores the progress of confirming deliveries (one transaction for a whole poll). */
  saveConfirmProgress(updates: Array<{ deliveryId: number; progress: ConfirmProgressRecord }>): void {
    const now = this.clock.now();
    this.transaction(() => {
      for (const u of updates) this.cst.saveProgress.run(JSON.stringify(u.progress), now, u.deliveryId);
    });
  }

  /** Ends confirmations (done or unconfirmed); their scans finish when nothing else is open. */
  recordConfirmed(finishes: ConfirmFinish[]): number {
    const now = this.clock.now();
    return this.transaction(() => finishes.filter((f) => finishConfirming(this.ctx, this.cst, f, now)).length);
  }

  recordRetry(job: DeliveryJob, retryAt: number, error: string, libraries: LibraryRef[] | null = null): boolean {
    return this.transaction(() => deliveries.recordRetry(this.ctx, job, retryAt, error, libraries, this.clock.now()));
  }

  recordFailed(job: DeliveryJob, error: string, libraries: LibraryRef[] | null = null): boolean {
    return this.transaction(() => deliveries.recordFailed(this.ctx, job, error, libraries, this.clock.now()));
  }

  recordSkipped(job: DeliveryJob, reason: string): boolean {
    return this.transaction(() => deliveries.recordSkipped(this.ctx, job, reason, this.clock.now()));
  }

  /** Gives a claim back unsent: pending as it was, no attempt counted (false when it is no longer ours). */
  releaseClaim(job: DeliveryJob): boolean {
    return this.transaction(() => deliveries.releaseClaim(this.ctx, job, this.clock.now()));
  }

  /** Extends the lease of every claim this process holds. */
  renewLeases(): number {
    return this.transaction(() => deliveries.renewLeases(this.ctx, this.clock.now()));
  }

  /** Puts claims whose lease ran out back to pending; returns them. */
  releaseExpiredLeases(): Array<{ id: number; owner: string }> {
    return this.transaction(() => deliveries.releaseExpiredLeases(this.ctx, this.clock.now()));
  }

  // File-exists checks (driven by the scheduler).

  /** Scans past their debounce whose imports are due to be looked for, oldest check first. */
  dueFileChecks(limit: number): DueFileCheck[] {
    return dueFileChecks(this.ctx, this.clock.now(), limit);
  }

  /** Records a check round; scans it released are announced to the scheduler. */
  recordFileChecks(due: DueFileCheck[], results: FileCheckResult[]): FileCheckSummary {
    const summary = this.transaction(() => recordFileChecks(this.ctx, due, results, this.clock.now()));
    if (summary.releasedDueAt !== Infinity) this.notify(summary.releasedDueAt);
    return summary;
  }

  /** Gives up waiting deliveries of scans first requested at or before `cutoff`. */
  expireWaiting(cutoff: number, reason: string): ExpiredScan[] {
    return this.transaction(() => deliveries.expireWaiting(this.ctx, cutoff, reason, this.clock.now()));
  }

  private transaction<T>(fn: () => T): T {
    return inTransaction(this.options.db, fn);
  }

  private notify(earliest: number): void {
    for (const listener of this.listeners) {
      try {
        listener(earliest);
      } catch (error) {
        this.options.logger.error({ err: error }, "a queue listener failed");
      }
    }
  }
}
