import { controlCharacterIn } from "../paths/index.js";
import { getField, isObject, type JsonObject } from "./read.js";
import type { RequestedPath, TriggerResult } from "./types.js";

/**
 * A-Train's `{"created":[folders],"deleted":[folders]}`: every entry is a
 * folder that changed on the drive. A folder in both lists is scanned once.
 * Keys are read as autoscan's Go decoder reads them, in any case (`Created`,
 * `CREATED`).
 */
export function parseATrain(body: unknown): TriggerResult {
  if (!isObject(body)) return { kind: "invalid", reason: "a-train: the body must be a JSON object" };
  const paths: RequestedPath[] = [];
  const seen = new Set<string>();
  for (const field of ["created", "deleted"]) {
    const key = goFieldKey(body, field);
    const list = key === undefined ? undefined : getField(body, key);
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) return { kind: "invalid", reason: `a-train: ${key} must be an array of folder paths` };
    for (const [i, entry] of list.entries()) {
      if (typeof entry !== "string" || entry.trim() === "")
        return { kind: "invalid", reason: `a-train: ${key}[${i}] must be a non-empty string` };
      const problem = controlCharacterIn(entry);
      if (problem !== undefined) return { kind: "invalid", reason: `a-train: ${key}[${i}] ${problem}` };
      if (seen.has(entry)) continue;
      seen.add(entry);
      paths.push({ path: entry, kind: "folder" });
    }
  }
  if (paths.length === 0) return { kind: "invalid", reason: "a-train: neither created nor deleted names a folder" };
  return { kind: "scan", source: "a-train", event: "ATrain", paths };
}

/**
 * The key Go's encoding/json decodes into the field named `field`: each key
 * of the object picks the field of its exact name, else the one equal to it
 * ignoring case, and a later key overwrites an earlier one. Go's folding is
 * ASCII here: its non-ASCII equivalents (the Kelvin sign for k, long s for s)
 * belong to letters neither field name has.
 */
function goFieldKey(body: JsonObject, field: string): string | undefined {
  let found: string | undefined;
  for (const key of Object.keys(body)) if (key.length === field.length && asciiLower(key) === field) found = key;
  return found;
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}
