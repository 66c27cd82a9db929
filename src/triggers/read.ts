/** Narrowing helpers for untrusted JSON; a wrong shape becomes a PayloadError. */
import { isBlank } from "../lib/blank.js";

/** A payload that cannot be scanned as sent; `message` names the field. */
export class PayloadError extends Error {
  override name = "PayloadError";
}

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Own properties only, so "__proto__" or "constructor" never leak in from the prototype. */
export function getField(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/**
 * The non-blank string at `key`, or undefined when it is absent, null or
 * blank (the *arrs omit nulls, and a blank path names nothing to scan).
 */
export function readOptionalString(object: JsonObject, key: string, where: Where): string | undefined {
  const value = getField(object, key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new PayloadError(`${join(whereText(where), key)} must be a string`);
  return isBlank(value) ? undefined : value;
}

/**
 * Where a field sits, for an error message: the text, or a function making it
 * (a 25,000-entry file list names each entry only when one is wrong).
 */
export type Where = string | (() => string);

export function whereText(where: Where): string {
  return typeof where === "string" ? where : where();
}

/** The object at `key`, or undefined when absent; any other type is an error. */
export function readOptionalObject(object: JsonObject, key: string, where: Where): JsonObject | undefined {
  const value = getField(object, key);
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new PayloadError(`${join(whereText(where), key)} must be an object`);
  return value;
}

/**
 * An on/off value as a form, a query or JSON carries it: true/false, or the
 * strings 1, 0, true, false (any case); undefined for anything else.
 */
export function readSwitchValue(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value !== "string") return undefined;
  return /^(1|true)$/i.test(value) ? true : /^(0|false)$/i.test(value) ? false : undefined;
}

function join(where: string, key: string): string {
  return where === "" ? key : `${where}.${key}`;
}
