import type { LibraryRef } from "../queue/types.js";
import type { DeliveryOutcome } from "./deliver.js";

/** A folder the after-scan work asks to be scanned again in one library (a confirmation's re-scan). */
export interface RescanRequest {
  target: string;
  /** The delivered folder, in the media server's path form (the scheduler maps it to the target's). */
  folder: string;
  library: LibraryRef;
}

/** A queued re-scan and where its outcome goes. */
export interface QueuedRescan {
  request: RescanRequest;
  settle(outcome: DeliveryOutcome): void;
}

/**
 * The re-scans waiting for the scheduler: the after-scan work asks, the
 * scheduler sends each through deliver.ts (the one place that calls a
 * target's scan) and the anchor gate, within the target's concurrency.
 * Durable through the confirmation's own record: a re-scan lost to a stop
 * is decided again by the next poll.
 */
export interface RescanQueue {
  /** Queues a re-scan; resolves with its outcome ("held" while an anchor is missing; never rejects). */
  request(request: RescanRequest): Promise<DeliveryOutcome>;
  /** The scheduler's side: up to `max` queued re-scans of `target`, oldest first, taken off the queue. */
  take(target: string, max: number): QueuedRescan[];
  /** The scheduler's side: `wake` is called when a re-scan is queued. */
  attach(wake: () => void): void;
  /** Ends every queued re-scan unsent (the scheduler stopped); later requests end at once. */
  close(): void;
}

const STOPPED: DeliveryOutcome = { kind: "unavailable", error: "delivery has stopped; the re-scan was not sent", libraries: null };

export function createRescanQueue(): RescanQueue {
  const queued: QueuedRescan[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  return {
    request(request) {
      if (closed) return Promise.resolve(STOPPED);
      return new Promise((settle) => {
        queued.push({ request, settle });
        wake?.();
      });
    },
    take(target, max) {
      const taken: QueuedRescan[] = [];
      for (let i = 0; i < queued.length && taken.length < max; ) {
        if (queued[i]?.request.target === target) taken.push(...queued.splice(i, 1));
        else i++;
      }
      return taken;
    },
    attach(next) {
      wake = next;
      if (queued.length > 0) next();
    },
    close() {
      closed = true;
      wake = undefined;
      for (const { settle } of queued.splice(0)) settle(STOPPED);
    },
  };
}
