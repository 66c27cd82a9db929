import type { NotifyEvent, NotifyEventType } from "./events.js";

/** Events one message carries: at most KEPT_PER_TYPE of each type (a burst of failures never hides a target down), every one counted. */
export interface Batch {
  events: NotifyEvent[];
  counts: Partial<Record<NotifyEventType, number>>;
  /** Events counted but not kept (a burst of thousands of failures). */
  omitted: number;
}

export const KEPT_PER_TYPE = 50;

export function emptyBatch(): Batch {
  return { events: [], counts: {}, omitted: 0 };
}

export function addToBatch(batch: Batch, event: NotifyEvent): void {
  const n = (batch.counts[event.type] ?? 0) + 1;
  batch.counts[event.type] = n;
  if (n <= KEPT_PER_TYPE) batch.events.push(event);
  else batch.omitted += 1;
}

export function isEmpty(batch: Batch): boolean {
  return batch.events.length === 0 && batch.omitted === 0;
}
