import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Spec } from "../../src/config/schema.js";
import { configSchema } from "../../src/config/target-kind.js";
import { TARGET_CONFIGS } from "../../src/targets/registry.js";

const DOC = readFileSync(join(dirname(fileURLToPath(import.meta.url)), "..", "..", "docs", "configuration.md"), "utf8");

/** Every key name the schema declares, at any depth (a TARGETS entry's fields, CLOUD.ALLOWED's, …). */
function keysOf(spec: Spec): string[] {
  if (spec.kind === "object") return Object.entries(spec.fields).flatMap(([key, field]) => [key, ...keysOf(field)]);
  if (spec.kind === "list") return keysOf(spec.item);
  if (spec.kind === "map") return keysOf(spec.value);
  return [];
}

describe("docs/configuration.md", () => {
  it("names every key the schema declares, the target folders' own fields included", () => {
    const keys = [...new Set(keysOf(configSchema(TARGET_CONFIGS)))];
    // A key may be named in a dotted path (`CLOUD.ALLOWED.FILE_PATHS`) or a JSON example, always inside backticks.
    const named = new Set(DOC.match(/`[^`\n]*`/g)?.flatMap((code) => code.match(/[A-Z][A-Z0-9_]*/g) ?? []));
    expect(keys.filter((key) => !named.has(key))).toEqual([]);
  });
});
