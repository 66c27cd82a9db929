import type { Clock } from "../lib/clock.js";
import type { QueueEvents } from "../queue/events.js";
import type { Notify } from "./events.js";

/**
 * Tells `notify` of every delivery the queue recorded failed (a target
 * refused it, or it was given up after the maximum age) and of every
 * confirmation that ended unconfirmed. A write the queue refused (the claim
 * was lost) tells nothing. Returns the unsubscribe.
 */
export function observeQueue(events: QueueEvents, notify: Notify, clock: Pick<Clock, "now">): () => void {
  return events.subscribe((event) => {
    switch (event.type) {
      case "delivery-recorded":
        if (event.record === "failed") {
          const { folder, target } = event.job;
          notify({ type: "scan-failed", at: clock.now(), folder, target, error: event.error ?? "" });
        }
        return;
      case "scans-expired":
        for (const scan of event.scans)
          notify({ type: "scan-failed", at: clock.now(), folder: scan.folder, target: "every target", error: event.reason });
        return;
      case "confirmation-ended":
        if (event.state === "unconfirmed") {
          const error = event.error ?? "files not as expected in Plex";
          notify({ type: "scan-unconfirmed", at: clock.now(), folder: event.folder, target: event.target, error });
        }
        return;
      default:
        return;
    }
  });
}
