import type { QueueEvent, QueueEvents } from "../queue/events.js";
import type { DeliveryOutcomeLabel, ScanMetrics } from "./metrics.js";

const LABELS = {
  done: "delivered",
  confirming: "delivered",
  retry: "retry",
  failed: "failed",
  skipped: "skipped",
} as const satisfies Record<string, DeliveryOutcomeLabel>;

/**
 * Counts what the queue committed: each delivery outcome (with the time from
 * its claim and from the scan's first request) and each confirmation that
 * ended. The scheduler and the drivers stay unaware of metrics. A claim's
 * time is kept until its outcome (a claim claimed again starts anew); an
 * outcome the queue refused (the claim was lost) is never told, so never
 * counted. Returns the unsubscribe.
 */
export function observeQueue(events: QueueEvents, metrics: ScanMetrics): () => void {
  const claimedAt = new Map<number, number>();
  const seconds = (ms: number) => Math.max(0, ms) / 1000;
  return events.subscribe((event: QueueEvent) => {
    switch (event.type) {
      case "claimed":
        for (const job of event.jobs) claimedAt.set(job.deliveryId, event.at);
        return;
      case "delivery-recorded": {
        const { job, at } = event;
        const start = claimedAt.get(job.deliveryId);
        claimedAt.delete(job.deliveryId);
        const latency = start === undefined ? undefined : seconds(at - start);
        metrics.delivery(job.target, LABELS[event.record], latency, seconds(at - job.firstRequestedAt));
        return;
      }
      case "claim-released":
        // Given back unsent: not an outcome; a new claim starts its clock again.
        claimedAt.delete(event.job.deliveryId);
        return;
      case "confirmation-ended": {
        const after = event.confirmedAfterMs;
        const outcome = event.state === "done" ? "confirmed" : "unconfirmed";
        metrics.confirmation(event.target, outcome, after === undefined ? undefined : after / 1000);
        return;
      }
      default:
        return;
    }
  });
}
