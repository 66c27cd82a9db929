import { isIP } from "node:net";
import { nearestName } from "../lib/edit-distance.js";
import { LEGACY_NOTES } from "./legacy-notes.js";
import { holdsSecret, LEGACY_KEYS, type Spec } from "./schema.js";

export interface ValidationReport {
  problems: string[];
  warnings: string[];
}

/** Checks `value` against `spec`, collecting every problem with its dotted path. */
export function validateValue(spec: Spec, value: unknown, at: string, report: ValidationReport): void {
  const fail = (why: string): void => {
    report.problems.push(`${at}: ${why}`);
  };
  // A secret's value never appears in a message, even when it is not the type the key takes.
  // A value that is or holds a secret (a target entry given as a string) is described by its type.
  const describe = holdsSecret(spec) ? describeType : describeValue;
  switch (spec.kind) {
    case "boolean":
      if (typeof value !== "boolean") fail(`must be true or false, got ${describe(value)}`);
      return;
    case "string":
      if (typeof value !== "string") return fail(`must be a string, got ${describe(value)}`);
      if (spec.nonEmpty && value === "") return fail("must not be empty");
      if (spec.pattern && !spec.pattern.test(value)) fail(spec.hint ?? `must match ${spec.pattern}`);
      return;
    case "url":
      if (typeof value !== "string") return fail(`must be a URL string, got ${describe(value)}`);
      if (!/^https?:\/\/[^/\s]+/i.test(value) || !URL.canParse(value))
        fail(
          `must be an http:// or https:// URL, got ${spec.secret ? "something else (not shown: it may hold a token)" : JSON.stringify(withoutCredentials(value))}`,
        );
      return;
    case "host":
      if (typeof value !== "string") return fail(`must be a string, got ${describe(value)}`);
      if (isIP(value) === 0 && value !== "localhost")
        fail(`must be an IP address such as 0.0.0.0 or 127.0.0.1, got ${JSON.stringify(value)}`);
      return;
    case "integer":
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) return fail(`must be a number, got ${describe(value)}`);
      if (spec.kind === "integer" && !Number.isInteger(value)) return fail(`must be a whole number, got ${value}`);
      if (spec.min !== undefined && value < spec.min) fail(`must be at least ${spec.min}, got ${value}`);
      if (spec.kind === "integer" && spec.max !== undefined && value > spec.max) fail(`must be at most ${spec.max}, got ${value}`);
      return;
    case "enum":
      if (typeof value !== "string" || !spec.values.includes(value))
        fail(`must be one of ${spec.values.map((v) => JSON.stringify(v)).join(", ")}, got ${describe(value)}`);
      return;
    case "strings":
      return validateStrings(value, at, report, spec.absolute);
    case "stringsByKey":
      if (!isPlainObject(value)) return fail(`must be an object of string arrays, got ${describe(value)}`);
      for (const [key, list] of Object.entries(value)) {
        const keyAt = `${at}[${JSON.stringify(key)}]`;
        if (key.trim() === "") report.problems.push(`${keyAt}: key must not be empty`);
        else if (spec.keyPattern && !spec.keyPattern.test(key))
          report.problems.push(`${keyAt}: key ${spec.keyHint ?? `must match ${spec.keyPattern}`}`);
        validateStrings(list, keyAt, report, spec.absoluteValues);
      }
      return;
    case "object":
      return validateObject(spec, value, at, report);
    case "map":
      if (!isPlainObject(value)) return fail(`must be an object keyed by name, got ${describe(value)}`);
      for (const [key, item] of Object.entries(value)) validateValue(spec.value, item, childPath(at, key), report);
      return;
    case "list":
      if (!Array.isArray(value)) return fail(`must be an array, got ${describe(value)}`);
      value.forEach((item, i) => validateValue(spec.item, item, `${at}[${i}]`, report));
      return;
    case "command":
      return validateCommand(value, at, report);
  }
}

function validateObject(spec: Extract<Spec, { kind: "object" }>, value: unknown, at: string, report: ValidationReport): void {
  const { fields } = spec;
  if (!isPlainObject(value)) {
    report.problems.push(`${at || "config"}: must be an object, got ${holdsSecret(spec) ? describeType(value) : describeValue(value)}`);
    return;
  }
  for (const key of spec.required ?? []) {
    if (!(key in value)) report.problems.push(`${childPath(at, key)}: missing; it is required`);
  }
  for (const [key, child] of Object.entries(value)) {
    const path = childPath(at, key);
    const spec = fields[key];
    if (spec) validateValue(spec, child, path, report);
    else if (LEGACY_KEYS.has(path))
      report.warnings.push(`${path}: ${LEGACY_NOTES[path] ?? "plex_autoscan setting not used by scanarr; ignored"}`);
    else report.problems.push(`${path}: unknown key${suggest(key, at, Object.keys(fields))}`);
  }
}

function validateCommand(value: unknown, at: string, report: ValidationReport): void {
  if (typeof value === "string") return;
  if (!Array.isArray(value)) {
    report.problems.push(
      `${at}: must be a string (run with /bin/sh -c) or an array of strings (program and arguments), got ${describeValue(value)}`,
    );
    return;
  }
  validateStrings(value, at, report);
  if (value.length > 0 && typeof value[0] === "string" && value[0].trim() === "") {
    report.problems.push(`${at}[0]: must name the program to run`);
  }
}

function validateStrings(value: unknown, at: string, report: ValidationReport, absolute = false): void {
  if (!Array.isArray(value)) {
    report.problems.push(`${at}: must be an array of strings, got ${describeValue(value)}`);
    return;
  }
  value.forEach((item, i) => {
    if (typeof item !== "string") report.problems.push(`${at}[${i}]: must be a string, got ${describeValue(item)}`);
    else if (absolute && !item.startsWith("/"))
      report.problems.push(`${at}[${i}]: must be an absolute path on this machine, got ${describeValue(item)}`);
  });
}

/** `A.B` for identifier keys, `A["/x/"]` for others. */
export function childPath(parent: string, key: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describeValue(value: unknown): string {
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${String(value)}`;
  return describeType(value);
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return typeof value === "string" ? "a string" : `a ${typeof value}`;
}

/** A URL as typed, without what may be a password (`user:pass@`) or a token (`?X-Plex-Token=`). */
function withoutCredentials(text: string): string {
  return text.replace(/\/\/[^/@\s]*@/, "//…@").replace(/\?.*$/, "?…");
}

/** ` (did you mean SERVER_SCAN_DELAY?)` for a near miss of a key of the same object, by its dotted path. */
function suggest(key: string, at: string, known: string[]): string {
  const close = nearestName(key, known);
  return close ? ` (did you mean ${childPath(at, close)}?)` : "";
}
