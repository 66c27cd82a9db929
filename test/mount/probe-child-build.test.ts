import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

describe("the probe child in the built package", () => {
  it("is plain JavaScript that `npm run build` copies next to the bundle's chunks", () => {
    const child = path.join(root, "src", "mount", "probe-child.js");
    // No TypeScript syntax: the same file runs with bare node from src/ in tests and from dist/ once built.
    const output = ts.transpileModule(readFileSync(child, "utf8"), {
      compilerOptions: { allowJs: true },
      reportDiagnostics: true,
      fileName: child,
    });
    expect(output.diagnostics ?? []).toEqual([]);
    // probe-worker.ts finds it as ./probe-child.js beside itself; in the bundle every chunk is in dist/cli/.
    const build = readFileSync(path.join(root, "contrib", "build.mjs"), "utf8");
    expect(build).toContain('chunkNames: "cli/[name]-[hash]"');
    expect(build).toContain('copyFileSync("src/mount/probe-child.js", "dist/cli/probe-child.js")');
    const packageJson = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
      files: string[];
      scripts: Record<string, string>;
    };
    expect(packageJson.files).toContain("dist");
    expect(packageJson.scripts.build).toBe("node contrib/build.mjs");
  });
});
