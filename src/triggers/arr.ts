import { controlCharacterIn, isWithin, quotePath } from "../paths/index.js";
import { asDeleted, readDeletedFiles, readRoot, type ArrPayload } from "./arr-payload.js";
import { PayloadError, getField, type JsonObject } from "./read.js";
import type { RequestedPath, Source, TriggerResult } from "./types.js";

/** Reads the paths one scan event names; throws PayloadError when it cannot. */
export type EventReader = (payload: ArrPayload) => RequestedPath[];

/** How one *arr app shapes its webhooks: the autoscan idea of one small table per trigger. */
export interface ArrTrigger {
  source: Exclude<Source, "manual" | "a-train">;
  /** The object holding the media folder, and the key of the folder in it. */
  rootKey: string;
  rootPathKey: string;
  /** Top-level keys that only this app sends; any of them identifies it. */
  shapeKeys: readonly string[];
  /** Events that name files or folders, by their canonical (PascalCase) name. */
  scanEvents: Readonly<Record<string, EventReader>>;
  /** Events the app sends that never name anything to scan. */
  quietEvents: readonly string[];
  /**
   * Whether this event (by its canonical name) is the last of its batch, so
   * its folders need not wait for more (docs/configuration.md, "The quiet
   * time and the batch's end").
   */
  endsBatch?: (event: string, body: JsonObject) => boolean;
}

/** Whether `body` looks like a webhook of this app. */
export function matchesShape(trigger: ArrTrigger, body: JsonObject): boolean {
  return trigger.shapeKeys.some((key) => getField(body, key) !== undefined);
}

/**
 * Turns one webhook into a result. Event names are matched case-insensitively
 * because hand-written payloads (plex_autoscan users POST them from scripts)
 * and older app versions do not always use the apps' PascalCase.
 */
export function parseArrEvent(trigger: ArrTrigger, body: JsonObject, eventType: string): TriggerResult {
  const source = trigger.source;
  const scanEvent = findEvent(Object.keys(trigger.scanEvents), eventType);
  if (scanEvent === undefined) {
    const quiet = findEvent(trigger.quietEvents, eventType);
    const event = quiet ?? eventType;
    const reason = quiet ? `${source} ${event} carries no files to scan` : `${source} event "${event}" is not one that names files to scan`;
    return { kind: "ignored", source, event, reason };
  }
  const reader = trigger.scanEvents[scanEvent];
  const payload = { body, rootKey: trigger.rootKey, rootPathKey: trigger.rootPathKey };
  try {
    const paths = reader === undefined ? [] : dedupe(reader(payload));
    if (paths.length === 0) return { kind: "invalid", reason: `${source} ${scanEvent}: no paths in the payload` };
    const root = trigger.endsBatch?.(scanEvent, body) === true ? readRoot(payload) : undefined;
    // Without its media folder (a hand-written payload) an event is not trusted to end a batch: it waits its quiet time.
    if (root === undefined) return { kind: "scan", source, event: scanEvent, paths };
    checkWithinRoot(payload, root, paths);
    return { kind: "scan", source, event: scanEvent, paths, batchEnd: true };
  } catch (error) {
    if (!(error instanceof PayloadError)) throw error;
    return { kind: "invalid", reason: `${source} ${scanEvent}: ${error.message}` };
  }
}

/** An event that removed what it names (a file delete, a series delete). */
export function deleting(reader: EventReader): EventReader {
  return (payload) => asDeleted(reader(payload));
}

/**
 * A file event plus, for upgrades, the files it replaced. A replaced file
 * with the new file's own path (Radarr and Sonarr list it in both when the
 * name did not change) was replaced in place: it is an import whose item is
 * refreshed, never a deletion.
 */
export function withDeletedFiles(reader: EventReader): EventReader {
  return (payload) => {
    const imported = reader(payload);
    const importedPaths = new Set(imported.map((p) => p.path));
    const deleted = readDeletedFiles(payload);
    const inPlace = new Set(deleted.filter((d) => importedPaths.has(d.path)).map((d) => d.path));
    return [...imported.map((p) => (inPlace.has(p.path) ? { ...p, refresh: true } : p)), ...deleted.filter((d) => !inPlace.has(d.path))];
  };
}

/**
 * A batch's end makes its folders due at once, so it must name only files of
 * its own series (movie, artist, author): a file elsewhere is no import of
 * this app, and the whole request is refused rather than hurry other folders.
 */
function checkWithinRoot(payload: ArrPayload, root: string, paths: readonly RequestedPath[]): void {
  // A path with a control character is refused in its own words (triggers/index.ts); it is not looked at here.
  const outside = paths.find((p) => controlCharacterIn(p.path) === undefined && !isWithin(root, p.path));
  if (outside !== undefined)
    throw new PayloadError(`${quotePath(outside.path)} lies outside ${payload.rootKey}.${payload.rootPathKey} ${quotePath(root)}`);
}

function findEvent(names: readonly string[], eventType: string): string | undefined {
  const wanted = eventType.toLowerCase();
  return names.find((name) => name.toLowerCase() === wanted);
}

/** Identical paths collapse (several episodes in one folder); distinct ones all stay. */
function dedupe(paths: RequestedPath[]): RequestedPath[] {
  // Per path, a bit for each kind-and-flags combination seen (no key string built per entry).
  const seen = new Map<string, number>();
  return paths.filter((entry) => {
    const bit = 1 << (KIND_BITS[entry.kind] * 4 + (entry.deleted ? 2 : 0) + (entry.refresh ? 1 : 0));
    const bits = seen.get(entry.path) ?? 0;
    if (bits & bit) return false;
    seen.set(entry.path, bits | bit);
    return true;
  });
}

const KIND_BITS: Record<RequestedPath["kind"], number> = { file: 0, folder: 1, unknown: 2 };
