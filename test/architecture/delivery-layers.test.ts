import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readImportGraph } from "./import-graph.js";

const SRC = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src");
const graph = readImportGraph(SRC);
const areaOf = (file: string) => file.split("/")[0] ?? file;

/** The imports of `from`'s files that land in one of `into`, as "file -> file". */
function importsBetween(from: string, into: readonly string[]): string[] {
  return graph.files
    .filter((file) => areaOf(file) === from)
    .flatMap((file) => (graph.imports.get(file) ?? []).filter((to) => into.includes(areaOf(to))).map((to) => `${file} -> ${to}`));
}

describe("targets and delivery (type-only imports count)", () => {
  it("targets/ import nothing from queue/ or delivery/: a target knows no gate and no queue", () => {
    expect(importsBetween("targets", ["queue", "delivery"])).toEqual([]);
  });

  it("delivery/ imports nothing from targets/: it talks to a target through domain.ts only", () => {
    expect(importsBetween("delivery", ["targets"])).toEqual([]);
  });

  it("one place calls a target's scan: delivery/deliver.ts", () => {
    const callers = graph.files.filter((file) => /\btarget\.scan\(/.test(readFileSync(join(SRC, file), "utf8")));
    expect(callers).toEqual(["delivery/deliver.ts"]);
  });
});
