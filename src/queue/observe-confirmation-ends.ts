import { withOverrides } from "../lib/override.js";
import type { ConfirmFinish, ConfirmingDelivery } from "./confirm-store.js";
import type { ConfirmQueue } from "./confirmations.js";

/** A confirmation the drivers ended, with its delivery as its target's driver last listed it. */
export interface ConfirmationEnd {
  finish: ConfirmFinish;
  listed: ConfirmingDelivery;
}

/**
 * The queue as the confirmation drivers use it, telling `onEnds` of each
 * batch of confirmations they end, and how many the queue recorded. A finish
 * names its delivery only: its folder and target come from the latest listing
 * of that target (each target's driver lists its own deliveries).
 */
export function observeConfirmationEnds<Q extends ConfirmQueue>(queue: Q, onEnds: (ends: ConfirmationEnd[], recorded: number) => void): Q {
  const listings = new Map<string, Map<number, ConfirmingDelivery>>();
  const overrides: Partial<ConfirmQueue> = {
    listConfirming(target, limit) {
      const rows = queue.listConfirming(target, limit);
      listings.set(target, new Map(rows.map((r) => [r.deliveryId, r])));
      return rows;
    },
    recordConfirmed(finishes) {
      const recorded = queue.recordConfirmed(finishes);
      const ends: ConfirmationEnd[] = [];
      for (const finish of finishes) {
        for (const listing of listings.values()) {
          const listed = listing.get(finish.deliveryId);
          if (listed) ends.push({ finish, listed });
        }
      }
      onEnds(ends, recorded);
      return recorded;
    },
  };
  return withOverrides(queue, overrides as Partial<Q>);
}
