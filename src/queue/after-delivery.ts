import type { Hooks } from "../hooks/hooks.js";
import type { Logger } from "../lib/logger.js";
import type { ConfirmationHandle } from "./confirmations.js";
import type { DeliveryOutcome, DeliveryTarget } from "./deliver.js";
import { logHookRun } from "./hook-log.js";
import type { DeliveryAround } from "./scheduler.js";
import type { DeliveryJob } from "./types.js";

export interface AfterDeliveryOptions {
  /** The target the hooks and the confirmation belong to (the flat PLEX_* Plex). */
  target: string;
  hooks: Hooks;
  /** The confirmation driver, when the after-scan work is on; without it the after-scan hook runs at once. */
  confirmations?: Pick<ConfirmationHandle, "wake">;
  logger: Logger;
}

/**
 * The scheduler's side of the after-scan work for one target: the
 * before-scan hook before the call (the scan goes out whatever the hook
 * does), then either the confirmation driver (which runs the after-scan hook
 * once it settles) or the after-scan hook right away.
 */
export function createAfterDelivery(options: AfterDeliveryOptions): DeliveryAround {
  const { target, hooks, confirmations, logger } = options;
  return {
    confirms: (name) => name === target && confirmations !== undefined,
    async before(dt: DeliveryTarget, job: DeliveryJob) {
      if (dt.target.name !== target) return;
      try {
        const run = await hooks.before(factsOf(job));
        if (run) logHookRun(logger, run, job.folder);
      } catch (error) {
        logger.warn({ err: error, folder: job.folder }, "before-scan hook could not run; scanning anyway");
      }
    },
    after(dt: DeliveryTarget, job: DeliveryJob, outcome: DeliveryOutcome) {
      if (dt.target.name !== target) return;
      if (outcome.kind === "done" && confirmations) {
        confirmations.wake();
        return;
      }
      // A retry runs the hook again on the next attempt's outcome; only final outcomes are reported.
      if (outcome.kind === "unavailable" || outcome.kind === "auth") return;
      const facts = {
        ...factsOf(job),
        result: outcome.kind === "done" ? "finished" : "failed",
        ...(outcome.kind !== "done" ? { error: outcome.error } : {}),
      };
      void hooks
        .after(facts)
        .then((run) => run && logHookRun(logger, run, job.folder))
        .catch((error: unknown) => logger.warn({ err: error, folder: job.folder }, "after-scan hook could not run"));
    },
  };

  function factsOf(job: DeliveryJob) {
    return { folder: job.folder, source: job.source ?? "", event: job.event ?? "", target, files: job.files };
  }
}
