import { logHookRun } from "../../hooks/log-run.js";
import type { Hooks } from "../../hooks/hooks.js";
import type { Logger } from "../../lib/logger.js";
import type { DeliveryTarget } from "../deliver.js";
import type { QueueEvent, QueueEvents } from "../../queue/events.js";
import type { DeliveryAround } from "../scheduler-types.js";
import type { DeliveryJob } from "../../queue/types.js";
import type { ConfirmationHandle } from "./driver.js";
import type { RescanQueue } from "../rescans.js";

/** A target the hooks and the confirmation belong to (a Plex one), with its driver when its after-scan work is on. */
export interface HookedTarget {
  built: DeliveryTarget;
  /** Without one, the after-scan hook runs as soon as the delivery is recorded. */
  confirmations: Pick<ConfirmationHandle, "wake" | "stop"> | undefined;
}

export interface AroundDeliveryOptions {
  targets: ReadonlyMap<string, HookedTarget>;
  hooks: Hooks;
  logger: Logger;
  /** The queue's events: a recorded outcome wakes the driver or runs the after-scan hook. */
  events: QueueEvents;
  /** The drivers' re-scans, for the scheduler to send. */
  rescans?: RescanQueue;
}

export interface AroundDelivery extends DeliveryAround {
  /** Stops listening to the queue. */
  stop(): void;
}

/**
 * The after-scan work around some targets' deliveries: the before-scan hook
 * before the call (the scan goes out whatever the hook does); once the
 * outcome is committed, either the target's confirmation driver (which runs
 * the after-scan hook once it settles) or the after-scan hook right away.
 */
export function createAroundDelivery(options: AroundDeliveryOptions): AroundDelivery {
  const { targets, hooks, logger } = options;
  const unsubscribe = options.events.subscribe(afterRecorded);
  return {
    confirms: (name) => targets.get(name)?.confirmations !== undefined,
    async before(dt: DeliveryTarget, job: DeliveryJob) {
      if (!targets.has(dt.target.name)) return;
      try {
        const run = await hooks.before(factsOf(job, dt));
        if (run) logHookRun(logger, run, job.folder);
      } catch (error) {
        logger.warn({ err: error, folder: job.folder }, "before-scan hook could not run; scanning anyway");
      }
    },
    ...(options.rescans ? { rescans: options.rescans } : {}),
    stop: unsubscribe,
  };

  function afterRecorded(event: QueueEvent): void {
    if (event.type !== "delivery-recorded") return;
    const hooked = targets.get(event.job.target);
    // A retry runs the hook again on the next attempt's outcome; only final outcomes are reported.
    if (!hooked || event.record === "retry") return;
    if (event.record === "confirming") {
      hooked.confirmations?.wake();
      return;
    }
    const { job } = event;
    const facts = {
      ...factsOf(job, hooked.built),
      result: event.record === "done" ? "finished" : "failed",
      ...(event.record !== "done" ? { error: event.error ?? "" } : {}),
    };
    void hooks
      .after(facts)
      .then((run) => run && logHookRun(logger, run, job.folder))
      .catch((error: unknown) => logger.warn({ err: error, folder: job.folder }, "after-scan hook could not run"));
  }

  // The folder and files as the target sees them (its PATH_MAPPINGS), like the scan call itself.
  function factsOf(job: DeliveryJob, dt: DeliveryTarget) {
    const seen = (path: string) => dt.toTargetPath(path);
    return {
      folder: seen(job.folder),
      source: job.source ?? "",
      event: job.event ?? "",
      target: dt.target.name,
      files: job.files.map(seen),
    };
  }
}
