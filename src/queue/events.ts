import type { Logger } from "../lib/logger.js";
import type { DeliveryJob, ExpiredScan } from "./types.js";

/** How a delivery attempt was recorded: `retry` goes back to pending, the others end the attempt's claim. */
export type DeliveryRecord = "done" | "confirming" | "retry" | "failed" | "skipped";

/**
 * What the queue committed, told after the commit (never for a write that
 * was rolled back, nor for a record refused because its claim was lost).
 * `at` is the queue's clock at the write. Events that make a delivery fall
 * due carry `dueAt`, so the scheduler arms its timer from them.
 */
export type QueueEvent =
  | { type: "enqueued"; at: number; dueAt: number; queued: string[]; covered: string[] }
  | { type: "claimed"; at: number; target: string; jobs: DeliveryJob[] }
  | { type: "delivery-recorded"; at: number; job: DeliveryJob; record: DeliveryRecord; error?: string }
  | { type: "claim-released"; at: number; job: DeliveryJob }
  | { type: "leases-released"; at: number; deliveries: number }
  | { type: "files-checked"; at: number; dueAt?: number; ready: string[]; exhausted: string[]; failed: string[] }
  | { type: "scans-expired"; at: number; scans: ExpiredScan[]; reason: string }
  | { type: "confirmation-progress"; at: number; deliveries: number }
  | {
      type: "confirmation-ended";
      at: number;
      deliveryId: number;
      scanId: number;
      target: string;
      folder: string;
      state: "done" | "unconfirmed";
      error: string | null;
      confirmedAfterMs?: number;
    }
  | { type: "action"; at: number; action: "scan-now" | "retry" | "cancel"; scanId: number; dueAt?: number }
  | { type: "history-cleared"; at: number; scans: number }
  | { type: "holds-changed"; at: number; holds: number };

export type QueueListener = (event: QueueEvent) => void;

/** What observers need from the queue: its events. */
export interface QueueEvents {
  /** Calls `listener` with every event after its commit; returns the unsubscribe. */
  subscribe(listener: QueueListener): () => void;
}

/** When the deliveries an event concerns fall due, if it makes some due. */
export function dueAtOf(event: QueueEvent): number | undefined {
  return "dueAt" in event ? event.dueAt : undefined;
}

/**
 * Events of the transaction under way, held until it commits: `publish`
 * after the commit, `discard` after a rollback. A listener that throws is
 * logged and the others still hear the event.
 */
export class EventBuffer implements QueueEvents {
  private readonly listeners = new Set<QueueListener>();
  private held: QueueEvent[] = [];

  constructor(private readonly logger: Logger) {}

  subscribe(listener: QueueListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  hold(event: QueueEvent): void {
    if (this.listeners.size > 0) this.held.push(event);
  }

  discard(): void {
    this.held = [];
  }

  publish(): void {
    // A listener may write (its own transaction publishes its own events): take these first.
    const events = this.held;
    this.held = [];
    for (const event of events) {
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch (error) {
          this.logger.error({ err: error, event: event.type }, "a queue listener failed");
        }
      }
    }
  }
}
