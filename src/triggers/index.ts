import { controlCharacterIn, quotePath } from "../paths/index.js";
import { matchesShape, parseArrEvent, type ArrTrigger } from "./arr.js";
import { lidarr } from "./lidarr.js";
import { parseManual } from "./manual.js";
import { radarr } from "./radarr.js";
import { readarr } from "./readarr.js";
import { getField, isObject } from "./read.js";
import { sonarr } from "./sonarr.js";
import type { TriggerResult } from "./types.js";

export type { PathKind, RequestedPath, Source, TriggerResult } from "./types.js";

/** Order matters only for bodies that mix shapes; the *arrs never do. */
const TRIGGERS: readonly ArrTrigger[] = [sonarr, radarr, lidarr, readarr];

/** Events every app sends without a series/movie/artist/author, so the sender cannot be told. */
const SHAPELESS_EVENTS = ["Health", "HealthRestored", "ApplicationUpdate", "DownloadFailure", "ImportFailure"];

/** Long enough for any real event name; keeps a hostile eventType out of the logs. */
const MAX_EVENT_LENGTH = 64;

/**
 * Reads one POSTed body: the parsed JSON value, or the fields of a
 * form-encoded request. Never throws; paths come back exactly as sent.
 */
export function parseScanRequest(body: unknown): TriggerResult {
  if (!isObject(body)) return { kind: "invalid", reason: "the body must be a JSON object or form fields" };
  // plex_autoscan also accepted "EventType", as the legacy v2 payloads spelled it.
  const eventType = getField(body, "eventType") ?? getField(body, "EventType");
  if (eventType === undefined || eventType === null) return { kind: "invalid", reason: "eventType is missing" };
  if (typeof eventType !== "string") return { kind: "invalid", reason: "eventType must be a string" };
  const event = shorten(eventType);
  if (event.toLowerCase() === "manual") return rejectControlCharacters(parseManual(body));

  const trigger = TRIGGERS.find((candidate) => matchesShape(candidate, body));
  if (event.toLowerCase() === "test") return { kind: "test", source: trigger?.source ?? "unknown", event: "Test" };
  if (trigger === undefined) return parseShapeless(event);
  return rejectControlCharacters(parseArrEvent(trigger, body, event));
}

function parseShapeless(event: string): TriggerResult {
  const known = SHAPELESS_EVENTS.find((name) => name.toLowerCase() === event.toLowerCase());
  if (known !== undefined) {
    return { kind: "ignored", source: "unknown", event: known, reason: `${known} carries no files to scan` };
  }
  return {
    kind: "invalid",
    reason: `cannot tell the sender of "${event}": no series, movie, artist or author object, and eventType is not Manual`,
  };
}

/**
 * A control character names no media file: a NUL would cut the path short in
 * C-based tools, a line break would split the log lines and notifications
 * naming the folder. One such path refuses the whole request.
 */
function rejectControlCharacters(result: TriggerResult): TriggerResult {
  if (result.kind !== "scan") return result;
  for (const { path } of result.paths) {
    const problem = controlCharacterIn(path);
    if (problem !== undefined) return { kind: "invalid", reason: `${result.source} ${result.event}: path ${quotePath(path)} ${problem}` };
  }
  return result;
}

function shorten(eventType: string): string {
  return eventType.length <= MAX_EVENT_LENGTH ? eventType : `${eventType.slice(0, MAX_EVENT_LENGTH)}…`;
}
