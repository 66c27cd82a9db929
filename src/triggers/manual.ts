import { getField, readSwitchValue, type JsonObject } from "./read.js";
import type { TriggerResult } from "./types.js";

/**
 * `eventType=Manual&filepath=...` from the manual page or `curl -d`, or the
 * same two fields as JSON. `filepath` may be given more than once in a form
 * (or as a list in JSON): every path is scanned. Whether one names a file or
 * a folder is left to the server, which can only tell once the path is
 * mapped. `refresh` (true, 1)
 * says the file was replaced in place: its item is refreshed too
 * (docs/item-refresh.md).
 */
export function parseManual(body: JsonObject): TriggerResult {
  const filepath = getField(body, "filepath");
  if (filepath === undefined || filepath === null) {
    return { kind: "invalid", reason: "manual request without a filepath field" };
  }
  const filepaths: string[] = [];
  for (const path of Array.isArray(filepath) ? (filepath as unknown[]) : [filepath]) {
    if (typeof path !== "string") return { kind: "invalid", reason: "filepath must be a string or a list of strings" };
    if (path.trim() === "") return { kind: "invalid", reason: "filepath is empty" };
    filepaths.push(path);
  }
  if (filepaths.length === 0) return { kind: "invalid", reason: "filepath is an empty list" };
  const refresh = getField(body, "refresh");
  const replaced = refresh === undefined || refresh === null ? false : readSwitchValue(refresh);
  if (replaced === undefined) return { kind: "invalid", reason: "refresh must be true, false, 1 or 0" };
  return {
    kind: "scan",
    source: "manual",
    event: "Manual",
    paths: filepaths.map((path) => ({ path, kind: "unknown", ...(replaced ? { refresh: true } : {}) })),
  };
}
