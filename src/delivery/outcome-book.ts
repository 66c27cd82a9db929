import type { Logger } from "../lib/logger.js";
import type { DeliveryTarget } from "./deliver.js";
import { planOutcome, type Attempt, type OutcomeWrite } from "./record-outcome.js";
import type { TargetHealth } from "./target-health.js";
import type { DeliveryPolicy } from "./policy.js";
import type { DeliveryQueue, DeliveryStorage } from "./scheduler-types.js";

/** One answered delivery waiting to be recorded. */
export type Completed = Attempt & { dt: DeliveryTarget };

export interface OutcomeBookOptions {
  queue: DeliveryQueue;
  policy: DeliveryPolicy;
  logger: Logger;
  random: () => number;
  healthOf: (dt: DeliveryTarget) => TargetHealth;
  /** Whether an accepted delivery to `target` is recorded 'confirming'. */
  confirms?: (target: string) => boolean;
  storage?: DeliveryStorage;
}

/**
 * The answers of deliveries on their way into the queue: those received
 * since the last tick are recorded together, in one transaction; those the
 * database refused (disk full, I/O error) are kept and written again on
 * every tick, while their claims stay leased to us.
 */
export interface OutcomeBook {
  add(completed: Completed): void;
  /** Plans and writes the answers received since the last call. */
  recordCompleted(now: number): void;
  /** Writes the refused outcomes again, oldest first; throws while the database still refuses. */
  writeUnrecorded(): void;
  /** Answers received or refused and not recorded yet. */
  pending(): number;
  /** Outcomes the database refused, waiting to be written again. */
  unrecorded(): number;
}

export function createOutcomeBook(options: OutcomeBookOptions): OutcomeBook {
  const { queue, logger, storage, healthOf } = options;
  const completed: Completed[] = [];
  const unrecorded: OutcomeWrite[] = [];
  const context = {
    queue,
    policy: options.policy,
    logger,
    random: options.random,
    ...(options.confirms ? { confirms: options.confirms } : {}),
  };

  function writeUnrecorded(): void {
    while (unrecorded.length > 0) {
      const write = unrecorded[0] as OutcomeWrite;
      if (!write()) logger.warn("a delivery's claim was released before its outcome could be recorded; it will be delivered again");
      unrecorded.shift();
      if (unrecorded.length === 0) logger.info("recorded the delivery outcomes the database had refused");
    }
  }

  function recordCompleted(now: number): void {
    if (completed.length === 0) return;
    const batch = completed.splice(0).map((c) => ({
      ...c,
      write: planOutcome(context, c.dt.target.name, healthOf(c.dt), c, now),
    }));
    if (unrecorded.length > 0) {
      unrecorded.push(...batch.map((b) => b.write));
      return;
    }
    try {
      const lost = queue.batch(() => batch.filter((b) => !b.write()));
      for (const { job, dt } of lost)
        logger.warn({ folder: job.folder, target: dt.target.name }, "a delivery's claim was released before its outcome was recorded");
    } catch (error) {
      // The transaction was rolled back whole: every outcome of the batch is kept and written again.
      const full = storage?.report(error) ?? false;
      unrecorded.push(...batch.map((b) => b.write));
      logger[full ? "warn" : "error"](
        { err: error, outcomes: batch.length },
        "could not record deliveries; keeping their outcomes and retrying",
      );
    }
  }

  return {
    add: (c) => void completed.push(c),
    recordCompleted,
    writeUnrecorded,
    pending: () => completed.length + unrecorded.length,
    unrecorded: () => unrecorded.length,
  };
}
