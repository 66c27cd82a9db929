import type { Clock } from "../lib/clock.js";
import { withOverrides } from "../lib/override.js";
import type { DeliveryQueue } from "../queue/scheduler.js";
import type { DeliveryJob } from "../queue/types.js";
import type { DeliveryOutcomeLabel, ScanMetrics } from "./metrics.js";

/**
 * The queue as the scheduler drives it, counting each recorded outcome: the
 * scheduler stays unaware of metrics. A claim's time is kept until its
 * outcome, so the latency is claim → outcome; an outcome the queue refused
 * (the claim was lost) is not counted.
 */
export function observeDeliveries(queue: DeliveryQueue, metrics: ScanMetrics, clock: Clock): DeliveryQueue {
  const claimedAt = new Map<number, number>();
  const seconds = (ms: number) => Math.max(0, ms) / 1000;
  const note = (job: DeliveryJob, outcome: DeliveryOutcomeLabel, recorded: boolean): boolean => {
    const start = claimedAt.get(job.deliveryId);
    claimedAt.delete(job.deliveryId);
    if (!recorded) return recorded;
    const now = clock.now();
    metrics.delivery(job.target, outcome, start === undefined ? undefined : seconds(now - start), seconds(now - job.firstRequestedAt));
    return recorded;
  };
  const overrides: Partial<DeliveryQueue> = {
    claimDue(target, limit) {
      const jobs = queue.claimDue(target, limit);
      const now = clock.now();
      for (const job of jobs) claimedAt.set(job.deliveryId, now);
      return jobs;
    },
    recordDelivered: (job, libraries, confirming) => note(job, "delivered", queue.recordDelivered(job, libraries, confirming)),
    recordRetry: (job, retryAt, error, libraries) => note(job, "retry", queue.recordRetry(job, retryAt, error, libraries)),
    recordFailed: (job, error, libraries) => note(job, "failed", queue.recordFailed(job, error, libraries)),
    recordSkipped: (job, reason) => note(job, "skipped", queue.recordSkipped(job, reason)),
    // Given back unsent: not an outcome; a new claim starts its clock again.
    releaseClaim(job) {
      claimedAt.delete(job.deliveryId);
      return queue.releaseClaim(job);
    },
  };
  return withOverrides(queue, overrides);
}
