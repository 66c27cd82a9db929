import type { Database } from "better-sqlite3";
import {
  listConfirming,
  listConfirmingDue,
  prepareConfirmStatements,
  type ConfirmingDelivery,
  type ConfirmStatements,
} from "./confirm-store.js";
import { prepareHoldStatements, type HoldStatements } from "./holds.js";
import { prepareFileStatements, type FileStatements } from "./scan-files.js";
import { prepareRequestStatements, type RequestStatements } from "./scan-requests.js";
import { prepareStatements, type QueueStatements } from "./statements.js";

/**
 * The queue's statements, and the plain reads the scheduler, the after-scan
 * work and /health make between writes: counts and the next times something
 * falls due. None of them writes; how a scan is shown is the views' job
 * (src/queue/views/). The database is migrated already (storage/database.ts).
 */
export class DueReads {
  protected readonly st: QueueStatements;
  protected readonly cst: ConfirmStatements;
  protected readonly fst: FileStatements;
  protected readonly rst: RequestStatements;
  protected readonly hst: HoldStatements;

  constructor(db: Database) {
    this.st = prepareStatements(db);
    this.cst = prepareConfirmStatements(db);
    this.fst = prepareFileStatements(db);
    this.rst = prepareRequestStatements(db);
    this.hst = prepareHoldStatements(db);
  }

  countPending(): number {
    return (this.st.countPending.get() as { n: number }).n;
  }

  countFailed(): number {
    return (this.st.countFailed.get() as { n: number }).n;
  }

  /** Every delivery to `target` being confirmed, oldest first, with the files its scan named. */
  listConfirming(target: string, limit = 10_000): ConfirmingDelivery[] {
    return listConfirming(this.cst, target, limit);
  }

  /** The deliveries to `target` whose confirmation's next look is due by `now`, the longest due first, at most `limit`. */
  listConfirmingDue(target: string, now: number, limit: number): ConfirmingDelivery[] {
    return listConfirmingDue(this.cst, target, now, limit);
  }

  /** When the next look at a delivery to `target` being confirmed falls due, if any. */
  nextConfirmDue(target: string): number | undefined {
    return (this.cst.nextConfirmDue.get(target) as { at: number | null }).at ?? undefined;
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
}
