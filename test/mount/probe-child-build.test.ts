import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

describe("the probe child in the built package", () => {
  it("is plain JavaScript that `npm run build` emits next to path-probe.js (tsc with allowJs)", () => {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      path.join(root, "tsconfig.build.json"),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
        },
      },
    );
    expect(parsed?.options.allowJs).toBe(true);
    const child = path.join(root, "src", "mount", "probe-child.js");
    expect(parsed?.fileNames).toContain(child);
    // No TypeScript syntax: the same file runs with bare node from src/ in tests and from dist/ once built.
    const output = ts.transpileModule(readFileSync(child, "utf8"), {
      compilerOptions: { allowJs: true },
      reportDiagnostics: true,
      fileName: child,
    });
    expect(output.diagnostics ?? []).toEqual([]);
    const packageJson = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { files: string[] };
    expect(packageJson.files).toContain("dist");
  });
});
