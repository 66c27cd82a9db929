import type { Batch } from "./batch.js";
import type { NotifyEvent } from "./events.js";

/** One event as the JSON body shows it: times in ISO 8601, every other fact as it is. */
export type JsonEvent = Record<string, unknown> & { type: NotifyEvent["type"]; at: string };

export interface JsonBody {
  source: "scanarr";
  events: JsonEvent[];
  /** Every event of the batch by type, including those not listed in `events`. */
  counts: Batch["counts"];
  /** Events counted but not listed (more than 50 of one type in one message). */
  omitted: number;
}

/** The generic webhook body (the schema docs/notifications.md documents). */
export function formatJson(batch: Batch): JsonBody {
  return { source: "scanarr", events: batch.events.map(toJson), counts: batch.counts, omitted: batch.omitted };
}

function toJson(event: NotifyEvent): JsonEvent {
  const iso = (ms: number) => new Date(ms).toISOString();
  if ("since" in event) return { ...event, at: iso(event.at), since: iso(event.since) };
  return { ...event, at: iso(event.at) };
}
