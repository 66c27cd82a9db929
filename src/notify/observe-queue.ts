import type { Clock } from "../lib/clock.js";
import { withOverrides } from "../lib/override.js";
import type { ConfirmQueue } from "../queue/confirmations.js";
import { observeConfirmationEnds } from "../queue/observe-confirmation-ends.js";
import type { DeliveryQueue } from "../queue/scheduler.js";
import type { Notify } from "./events.js";

/**
 * The queue as the scheduler drives it, telling `notify` of every delivery
 * recorded failed (a target refused it, or it was given up after the
 * maximum age); the scheduler stays unaware of notifications. A write the
 * queue refused (the claim was lost) tells nothing.
 */
export function observeFailures<Q extends DeliveryQueue>(queue: Q, notify: Notify, clock: Pick<Clock, "now">): Q {
  const overrides: Partial<DeliveryQueue> = {
    recordFailed(job, error, libraries) {
      const recorded = queue.recordFailed(job, error, libraries);
      if (recorded) notify({ type: "scan-failed", at: clock.now(), folder: job.folder, target: job.target, error });
      return recorded;
    },
    expireWaiting(cutoff, reason) {
      const expired = queue.expireWaiting(cutoff, reason);
      for (const scan of expired)
        notify({ type: "scan-failed", at: clock.now(), folder: scan.folder, target: "every target", error: reason });
      return expired;
    },
  };
  return withOverrides(queue, overrides as Partial<Q>);
}

/**
 * The queue as the confirmation drivers use it, telling `notify` of every
 * delivery that ended unconfirmed, with the folder its driver listed.
 */
export function observeUnconfirmed<Q extends ConfirmQueue>(queue: Q, notify: Notify, clock: Pick<Clock, "now">): Q {
  return observeConfirmationEnds(queue, (ends) => {
    for (const { finish, listed } of ends) {
      if (finish.state !== "unconfirmed") continue;
      const error = finish.error ?? "files not as expected in Plex";
      notify({ type: "scan-unconfirmed", at: clock.now(), folder: listed.folder, target: listed.target, error });
    }
  });
}
