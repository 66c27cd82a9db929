import type { Hooks } from "../hooks/hooks.js";
import type { Logger } from "../lib/logger.js";
import type { ConfirmationHandle } from "./confirmations.js";
import type { DeliveryOutcome, DeliveryTarget } from "./deliver.js";
import { logHookRun } from "./hook-log.js";
import type { DeliveryAround } from "./scheduler.js";
import type { DeliveryJob } from "./types.js";

export interface AfterDeliveryOptions {
  /**
   * The targets the hooks and the confirmation belong to (the Plex ones), by
   * name, each with its confirmation driver when its after-scan work is on;
   * without one its after-scan hook runs at once.
   */
  targets: ReadonlyMap<string, Pick<ConfirmationHandle, "wake"> | undefined>;
  hooks: Hooks;
  logger: Logger;
}

/**
 * The scheduler's side of the after-scan work for some targets: the
 * before-scan hook before the call (the scan goes out whatever the hook
 * does), then either the target's confirmation driver (which runs the
 * after-scan hook once it settles) or the after-scan hook right away.
 */
export function createAfterDelivery(options: AfterDeliveryOptions): DeliveryAround {
  const { targets, hooks, logger } = options;
  return {
    confirms: (name) => targets.get(name) !== undefined,
    async before(dt: DeliveryTarget, job: DeliveryJob) {
      if (!targets.has(dt.target.name)) return;
      try {
        const run = await hooks.before(factsOf(job, dt));
        if (run) logHookRun(logger, run, job.folder);
      } catch (error) {
        logger.warn({ err: error, folder: job.folder }, "before-scan hook could not run; scanning anyway");
      }
    },
    after(dt: DeliveryTarget, job: DeliveryJob, outcome: DeliveryOutcome) {
      if (!targets.has(dt.target.name)) return;
      const confirmations = targets.get(dt.target.name);
      if (outcome.kind === "done" && confirmations) {
        confirmations.wake();
        return;
      }
      // A retry runs the hook again on the next attempt's outcome; only final outcomes are reported.
      if (outcome.kind === "unavailable" || outcome.kind === "auth" || outcome.kind === "held") return;
      const facts = {
        ...factsOf(job, dt),
        result: outcome.kind === "done" ? "finished" : "failed",
        ...(outcome.kind !== "done" ? { error: outcome.error } : {}),
      };
      void hooks
        .after(facts)
        .then((run) => run && logHookRun(logger, run, job.folder))
        .catch((error: unknown) => logger.warn({ err: error, folder: job.folder }, "after-scan hook could not run"));
    },
  };

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
