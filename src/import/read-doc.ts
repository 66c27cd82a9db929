import { isObject, type JsonObject } from "../triggers/read.js";
import type { Rule } from "./model.js";

export type { JsonObject };
export { isObject };

/** The object at `value`, or an empty one (absent keys read as absent). */
export function objectAt(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

/** A YAML list, or one item written without the list (autopulse allows both). */
export function listAt(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

export function stringAt(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return undefined;
}

/** `{from, to}` entries of a rewrite list, each with where it was. */
export function readRules(value: unknown, where: string, notes: string[]): Rule[] {
  return listAt(value).flatMap((entry, i) => {
    const at = Array.isArray(value) ? `${where}[${i}]` : where;
    const from = stringAt(objectAt(entry).from);
    const to = stringAt(objectAt(entry).to);
    if (from === undefined || to === undefined) {
      notes.push(`${at}: a rewrite needs from and to; not converted`);
      return [];
    }
    return [{ from, to, where: at }];
  });
}

/** Keys of `object` that the importer does not know, reported once each. */
export function noteUnknownKeys(object: JsonObject, known: readonly string[], where: string, notes: string[]): void {
  for (const key of Object.keys(object))
    if (!known.includes(key)) notes.push(`${where ? `${where}.` : ""}${key}: not a setting scanarr knows; not converted`);
}
