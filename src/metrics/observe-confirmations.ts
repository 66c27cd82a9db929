import type { ConfirmQueue } from "../queue/confirmations.js";
import { observeConfirmationEnds } from "../queue/observe-confirmation-ends.js";
import type { ScanMetrics } from "./metrics.js";

/** The queue as the confirmation drivers use it, counting each confirmation that ends. */
export function observeConfirmations<Q extends ConfirmQueue>(queue: Q, metrics: ScanMetrics): Q {
  return observeConfirmationEnds(queue, (ends, recorded) => {
    // Nothing recorded (the deliveries ended elsewhere meanwhile): nothing to count.
    if (recorded === 0) return;
    for (const { finish, listed } of ends) {
      const after = finish.progress.confirmedAfterMs;
      const outcome = finish.state === "done" ? "confirmed" : "unconfirmed";
      metrics.confirmation(listed.target, outcome, after === undefined ? undefined : after / 1000);
    }
  });
}
