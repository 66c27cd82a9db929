import type { DeliveryTarget } from "./deliver.js";
import type { RescanQueue } from "./rescans.js";
import type { ScanQueue } from "../queue/scan-queue.js";
import type { HealthState } from "./target-health.js";
import type { DeliveryJob } from "../queue/types.js";

/** A target as the scheduler sees it; `since` and `error` while it is down or refusing its token. */
export interface TargetStateView {
  state: HealthState;
  failures: number;
  since?: number;
  error?: string | null;
}

/** The part of the queue the scheduler drives. */
export type DeliveryQueue = Pick<
  ScanQueue,
  | "subscribe"
  | "batch"
  | "claimDue"
  | "recordDone"
  | "recordDelivered"
  | "recordRetry"
  | "recordFailed"
  | "expireWaiting"
  | "nextDueAt"
  | "oldestWaitingSince"
  | "renewLeases"
  | "releaseExpiredLeases"
  | "nextLeaseEnd"
  | "recordSkipped"
  | "releaseClaim"
  | "dueFileChecks"
  | "recordFileChecks"
  | "nextFileCheckAt"
>;

/**
 * Whether the database can write (src/queue/storage/storage-watch.ts): while it
 * cannot, nothing new is claimed (an answer it could not record would be
 * delivered twice), and write failures are reported to it. Call `wake` when
 * it writes again.
 */
export interface DeliveryStorage {
  problem(): string | undefined;
  report(error: unknown): boolean;
}

/**
 * What runs around one target's scan calls; none of it may throw or hold a
 * delivery up for long. What follows an outcome listens to the queue's events.
 */
export interface DeliveryAround {
  /** Whether accepted deliveries to `target` are recorded 'confirming' (its confirmation driver ends them). */
  confirms(target: string): boolean;
  /** Before the scan call (the before-scan hook); the scan goes out whatever happens here. */
  before(dt: DeliveryTarget, job: DeliveryJob): Promise<void>;
  /** The re-scans the confirmations ask for: sent like deliveries, through deliver.ts and the anchor gate. */
  readonly rescans?: RescanQueue;
}
