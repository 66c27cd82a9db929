import type { Database } from "better-sqlite3";
import { systemClock, type Clock } from "../../lib/clock.js";
import { listConfirming, prepareConfirmStatements, type ConfirmingDelivery, type ConfirmStatements } from "../confirm-store.js";
import { prepareHoldStatements, type HoldStatements } from "../holds.js";
import type { ScanRow } from "../rows.js";
import type { ScanCounts } from "./scan-counts.js";
import { prepareFileStatements, type FileStatements } from "../scan-files.js";
import { prepareRequestStatements, type RequestStatements } from "../scan-requests.js";
import { ScanViews } from "./scan-views.js";
import { migrateQueue } from "../storage/schema.js";
import { prepareStatements, type QueueStatements } from "../statements.js";
import type { QueuedScan } from "../types.js";

/**
 * The queue's reads: counts, lists and the next times something falls due.
 * None of them writes, so the scheduler, the pages and the API share them.
 */
export class QueueReads {
  protected readonly st: QueueStatements;
  protected readonly cst: ConfirmStatements;
  protected readonly fst: FileStatements;
  protected readonly rst: RequestStatements;
  protected readonly hst: HoldStatements;
  protected readonly views: ScanViews;

  constructor(db: Database, clock: Pick<Clock, "now"> = systemClock) {
    migrateQueue(db);
    this.st = prepareStatements(db);
    this.cst = prepareConfirmStatements(db);
    this.fst = prepareFileStatements(db);
    this.rst = prepareRequestStatements(db);
    this.hst = prepareHoldStatements(db);
    this.views = new ScanViews(db, clock);
  }

  /** Scans per shown state (one count for the pages, /health, /metrics and the API). */
  counts(): ScanCounts {
    return this.views.counts();
  }

  countPending(): number {
    return (this.st.countPending.get() as { n: number }).n;
  }

  countFailed(): number {
    return (this.st.countFailed.get() as { n: number }).n;
  }

  /** Scans waiting or being delivered, in delivery order (priority, then due time). */
  listPending(limit = 1_000): QueuedScan[] {
    return this.withDeliveries(this.st.listPending.all(limit) as ScanRow[]);
  }

  /** Scans that failed on at least one target, newest first. */
  listFailed(limit = 1_000): QueuedScan[] {
    return this.withDeliveries(this.st.listFailed.all(limit) as ScanRow[]);
  }

  /** Scans Plex did not confirm (missing files in their deliveries' lastError), newest first. */
  listUnconfirmed(limit = 1_000): QueuedScan[] {
    return this.withDeliveries(this.st.listUnconfirmed.all(limit) as ScanRow[]);
  }

  /** The latest scans by their last request, whatever their state. */
  recent(limit = 50): QueuedScan[] {
    return this.withDeliveries(this.st.recent.all(limit) as ScanRow[]);
  }

  /** Every delivery to `target` being confirmed, oldest first, with the files its scan named. */
  listConfirming(target: string, limit = 10_000): ConfirmingDelivery[] {
    return listConfirming(this.cst, target, limit);
  }

  countConfirming(target: string): number {
    return (this.cst.countConfirming.get(target) as { n: number }).n;
  }

  /** When the next check round of some scan falls due, if any. */
  nextFileCheckAt(): number | undefined {
    return (this.fst.nextCheck.get() as { at: number | null }).at ?? undefined;
  }

  /** When the earliest lease of a claim in flight ends, if any. */
  nextLeaseEnd(): number | undefined {
    return (this.st.nextLeaseEnd.get() as { at: number | null }).at ?? undefined;
  }

  /** When the earliest waiting delivery of `target` falls due, if any. */
  nextDueAt(target: string): number | undefined {
    return (this.st.nextDue.get(target) as { at: number | null }).at ?? undefined;
  }

  /** First request time of the oldest scan still waiting for a delivery, if any. */
  oldestWaitingSince(): number | undefined {
    const at = ["open", "closed"].map((state) => (this.st.oldestWaiting.get(state) as { at: number } | undefined)?.at ?? Infinity);
    const oldest = Math.min(...at);
    return oldest === Infinity ? undefined : oldest;
  }

  protected withDeliveries(rows: ScanRow[]): QueuedScan[] {
    return this.views.show(rows).map(({ fileCount: _, ...scan }) => scan);
  }
}
