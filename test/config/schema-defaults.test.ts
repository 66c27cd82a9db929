import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { CONFIG_SCHEMA, type Spec } from "../../src/config/schema.js";

/** Dotted keys of the objects a spec declares (list items are not walked: their entries have no defaults). */
function schemaKeys(spec: Spec, at = ""): string[] {
  if (spec.kind !== "object") return [];
  return Object.entries(spec.fields).flatMap(([key, field]) => {
    const path = at ? `${at}.${key}` : key;
    return [path, ...schemaKeys(field, path)];
  });
}

/** Dotted keys of the plain objects in a default value, stopping where the schema has a map or a list. */
function valueKeys(value: unknown, spec: Spec, at = ""): string[] {
  if (spec.kind !== "object" || typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, field]) => {
    const path = at ? `${at}.${key}` : key;
    const child = spec.fields[key];
    return [path, ...(child ? valueKeys(field, child, path) : [])];
  });
}

// The config is declared in three files kept in step by hand: the schema (validation), the
// types (config/types.ts, which the defaults must satisfy) and the defaults. This keeps the
// first and the last in step, so a key added to one is added to the other.
describe("the config schema and the defaults", () => {
  it("declare the same keys, every nested object included", () => {
    const declared = schemaKeys(CONFIG_SCHEMA).sort();
    const defaulted = valueKeys(defaultConfig("0123456789abcdef0123456789abcdef"), CONFIG_SCHEMA).sort();
    expect(defaulted.filter((key) => !declared.includes(key))).toEqual([]);
    expect(declared.filter((key) => !defaulted.includes(key))).toEqual([]);
  });
});
