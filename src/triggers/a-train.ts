import { controlCharacterIn } from "../paths/index.js";
import { getField, isObject } from "./read.js";
import type { RequestedPath, TriggerResult } from "./types.js";

/**
 * A-Train's `{"created":[folders],"deleted":[folders]}`: every entry is a
 * folder that changed on the drive. A folder in both lists is scanned once.
 */
export function parseATrain(body: unknown): TriggerResult {
  if (!isObject(body)) return { kind: "invalid", reason: "a-train: the body must be a JSON object" };
  const paths: RequestedPath[] = [];
  const seen = new Set<string>();
  for (const key of ["created", "deleted"]) {
    const list = getField(body, key);
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
