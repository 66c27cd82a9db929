import type { ConfirmQueue } from "../queue/confirmations.js";
import { withOverrides } from "../lib/override.js";
import type { ScanMetrics } from "./metrics.js";

/**
 * The queue as the confirmation drivers use it, counting each confirmation
 * that ends. A finish names its delivery only: the target comes from the
 * listing the same driver read (each target's driver lists its own).
 */
export function observeConfirmations<Q extends ConfirmQueue>(queue: Q, metrics: ScanMetrics): Q {
  const targets = new Map<number, string>();
  const overrides: Partial<ConfirmQueue> = {
    listConfirming(target, limit) {
      const rows = queue.listConfirming(target, limit);
      for (const row of rows) targets.set(row.deliveryId, row.target);
      return rows;
    },
    recordConfirmed(finishes) {
      const recorded = queue.recordConfirmed(finishes);
      // Nothing recorded (the deliveries ended elsewhere meanwhile): nothing to count.
      for (const f of recorded > 0 ? finishes : []) {
        const target = targets.get(f.deliveryId);
        targets.delete(f.deliveryId);
        if (target === undefined) continue;
        const after = f.progress.confirmedAfterMs;
        metrics.confirmation(target, f.state === "done" ? "confirmed" : "unconfirmed", after === undefined ? undefined : after / 1000);
      }
      return recorded;
    },
  };
  return withOverrides(queue, overrides as Partial<Q>);
}
