import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cyclesOf, groupGraph, readImportGraph } from "./import-graph.js";

const SRC = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src");
const graph = readImportGraph(SRC);
const areaOf = (file: string) => file.split("/")[0] ?? file;

describe("the import graph of src/ (type-only imports count)", () => {
  it("reads the imports of every source file", () => {
    expect(graph.files.length).toBeGreaterThan(100);
    expect(graph.imports.get("cli/main.ts")?.length ?? 0).toBeGreaterThan(0);
  });

  it("has no cycle between files", () => {
    expect(cyclesOf(graph.files, graph.imports)).toEqual([]);
  });

  // A folder here is a top-level area of src/ (cli, config, queue, server, targets, ...). Inside an
  // area, a parent may import its subfolders and they its shared files (targets/registry.ts and
  // targets/plex/, server/route-list.ts and server/dashboard/): that is one area's inside.
  it("has no cycle between the folders of src/", () => {
    const edges = groupGraph(graph, areaOf);
    expect(cyclesOf([...new Set(graph.files.map(areaOf))], edges)).toEqual([]);
  });
});

describe("cyclesOf", () => {
  it("finds a loop and leaves a chain alone", () => {
    const edges = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
    ]);
    expect(cyclesOf(["a", "b", "c", "d"], edges)).toEqual([["a", "b", "c"]]);
    expect(cyclesOf(["a", "b"], new Map([["a", ["b"]]]))).toEqual([]);
  });
});
