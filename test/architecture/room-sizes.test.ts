import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");
const MAX_LINES = 300;
const MAX_FILES_PER_FOLDER = 30;

/** Every folder under src/ with the files directly in it. */
function folders(dir: string, out = new Map<string, string[]>()): Map<string, string[]> {
  const entries = readdirSync(dir, { withFileTypes: true });
  out.set(
    dir,
    entries.filter((e) => e.isFile()).map((e) => path.join(dir, e.name)),
  );
  for (const e of entries) if (e.isDirectory()) folders(path.join(dir, e.name), out);
  return out;
}

function lineCount(file: string): number {
  const text = readFileSync(file, "utf8");
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

describe("the size of the rooms (docs/architecture.md)", () => {
  const all = folders(SRC);

  it(`has no source file over ${MAX_LINES} lines`, () => {
    const long = [...all.values()]
      .flat()
      .filter((file) => /\.(ts|js|mjs)$/.test(file))
      .map((file) => ({ file: path.relative(SRC, file), lines: lineCount(file) }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });

  it(`has no folder with more than ${MAX_FILES_PER_FOLDER} files directly in it`, () => {
    const crowded = [...all.entries()]
      .map(([dir, files]) => ({ folder: path.relative(SRC, dir) || ".", files: files.length }))
      .filter((f) => f.files > MAX_FILES_PER_FOLDER);
    expect(crowded).toEqual([]);
  });

  it("counts what it measures", () => {
    // Both checks above pass on an empty tree: this proves they read src/.
    expect(all.get(path.join(SRC, "queue"))?.length).toBeGreaterThan(10);
    expect(lineCount(path.join(SRC, "domain.ts"))).toBeGreaterThan(100);
  });
});
