import type { Clock } from "../lib/clock.js";
import { withOverrides } from "../lib/override.js";
import type { ConfirmQueue } from "../queue/confirmations.js";
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
 * The queue as the confirmation driver uses it, telling `notify` of every
 * delivery that ended unconfirmed. The finishes name deliveries only: their
 * folders come from the listing the same poll read.
 */
export function observeUnconfirmed<Q extends ConfirmQueue>(queue: Q, notify: Notify, clock: Pick<Clock, "now">): Q {
  // Each target's confirmation driver lists its own deliveries: the latest listing per target.
  const known = new Map<string, Map<number, { folder: string; target: string }>>();
  const overrides: Partial<ConfirmQueue> = {
    listConfirming(target, limit) {
      const rows = queue.listConfirming(target, limit);
      known.set(target, new Map(rows.map((r) => [r.deliveryId, { folder: r.folder, target: r.target }])));
      return rows;
    },
    recordConfirmed(finishes) {
      const recorded = queue.recordConfirmed(finishes);
      for (const f of finishes) {
        const where = [...known.values()].find((listed) => listed.has(f.deliveryId))?.get(f.deliveryId);
        if (f.state !== "unconfirmed" || !where) continue;
        notify({ type: "scan-unconfirmed", at: clock.now(), ...where, error: f.error ?? "files not as expected in Plex" });
      }
      return recorded;
    },
  };
  return withOverrides(queue, overrides as Partial<Q>);
}
