import { backoffDelay } from "../lib/backoff.js";
import type { Logger } from "../lib/logger.js";
import { probeInterval } from "./backoff.js";
import type { DeliveryOutcome } from "./deliver.js";
import type { DeliveryPolicy } from "./policy.js";
import type { ScanQueue } from "../queue/scan-queue.js";
import type { TargetHealth } from "./target-health.js";
import type { DeliveryJob } from "../queue/types.js";

export type OutcomeQueue = Pick<ScanQueue, "recordDelivered" | "recordRetry" | "recordFailed" | "recordSkipped" | "releaseClaim">;

/** A queue write that answers whether the claim was still ours. */
export type OutcomeWrite = () => boolean;

interface OutcomeContext {
  queue: OutcomeQueue;
  policy: DeliveryPolicy;
  logger: Logger;
  random: () => number;
  /** Whether an accepted delivery to `target` is confirmed afterwards (recorded 'confirming', not 'done'). */
  confirms?: (target: string) => boolean;
}

/** One answered call: its job, what came of it, and its health mark (TargetHealth.callStarted). */
export interface Attempt {
  job: DeliveryJob;
  outcome: DeliveryOutcome;
  mark: number;
}

/**
 * Turns one attempt's outcome into the target's health (now, once) and the
 * queue write to make (returned, so the caller can retry it if the database
 * refuses: the outcome must be recorded, never the delivery repeated).
 */
export function planOutcome(ctx: OutcomeContext, target: string, health: TargetHealth, attempt: Attempt, now: number): OutcomeWrite {
  const { job, outcome, mark } = attempt;
  const { queue, policy, logger, random } = ctx;
  const retryAt = now + backoffDelay(job.attempts + 1, { ...policy.backoff, jitter: "equal" }, random);
  const where = { target, folder: job.folder, attempt: job.attempts + 1 };
  switch (outcome.kind) {
    case "done":
      health.recordSuccess();
      return () => {
        // Items refreshed without a folder scan: nothing for a confirmation to wait for.
        const confirming = !outcome.itemsOnly && (ctx.confirms?.(target) ?? false);
        const ours = queue.recordDelivered(job, outcome.libraries, confirming, refreshDetail(outcome));
        const message = outcome.itemsOnly
          ? "items refreshed; no folder scan needed"
          : confirming
            ? "scan delivered; waiting for Plex to confirm it"
            : "scan delivered";
        const refreshed = outcome.refreshed !== undefined ? { refreshed: outcome.refreshed } : {};
        if (ours) logger.info({ ...where, libraries: outcome.libraries.map((l) => l.title), ...refreshed }, message);
        return ours;
      };
    case "unavailable": {
      const probe = health.isProbe(mark);
      const first = health.recordUnavailable(outcome.error, mark, now, (round, downForMs) =>
        probeInterval(round, downForMs, policy, random),
      );
      // Only the failure that found the target down speaks of the scan too. A failed probe, or a failure
      // older than the round or the answer that came since, is the target's: the scan waits for the
      // target's next probe, or not at all when the target has answered meanwhile (heldUntil 0).
      const at = first && !probe ? retryAt : Math.min(retryAt, health.heldUntil);
      logger.debug({ ...where, error: outcome.error, retryAt: at }, "delivery failed, will retry");
      return () => queue.recordRetry(job, at, outcome.error, outcome.libraries);
    }
    case "auth":
      health.recordAuthFailure(outcome.error, mark, now + policy.authRetryMs, now);
      return () => queue.recordRetry(job, now + policy.authRetryMs, outcome.error, outcome.libraries);
    case "fatal":
      health.recordSuccess();
      logger.warn({ ...where, error: outcome.error }, "scan refused by the target; marked failed");
      return () => queue.recordFailed(job, outcome.error, outcome.libraries);
    case "no-library":
      // The library list was refetched on the miss: this target is left out of the scan, visibly.
      health.recordSuccess();
      logger.info({ ...where, reason: outcome.error }, "no library of the target holds the folder; skipped there");
      return () => queue.recordSkipped(job, outcome.error);
    case "nothing":
      // The target answered and has nothing to do for the folder (no series holds it): neither a failure nor a retry.
      health.recordSuccess();
      logger.info({ ...where, reason: outcome.error }, "the target has nothing to do for the folder; skipped there");
      return () => queue.recordSkipped(job, outcome.error);
    case "held":
      // Not an attempt and not the target's doing: the scheduler waits for the anchors.
      logger.debug(where, "an anchor went missing right before the scan call; the scan goes back to the queue unsent");
      return () => queue.releaseClaim(job);
  }
}

/** What a delivery that refreshed items did, in words for the queue's pages. */
function refreshDetail(outcome: Extract<DeliveryOutcome, { kind: "done" }>): string | undefined {
  if (outcome.refreshed === undefined) return undefined;
  return outcome.itemsOnly
    ? `refreshed ${outcome.refreshed} item(s); no folder scan needed`
    : `scanned; refreshed ${outcome.refreshed} known item(s)`;
}
