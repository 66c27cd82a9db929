import { describe, expect, it } from "vitest";
import { parseScanRequest } from "../../src/triggers/index.js";
import { foldersOf, listFixtureFiles, loadFixture, readExpectedFolders, webhookFixtures } from "./helpers.js";

describe.skipIf(!webhookFixtures.run)("every shared webhook fixture", () => {
  const expected = webhookFixtures.run ? readExpectedFolders() : {};
  const files = webhookFixtures.run ? listFixtureFiles() : [];

  it("has an entry in EXPECTED.md for each payload file and a file for each entry", () => {
    expect(files.length).toBeGreaterThan(0);
    expect(Object.keys(expected).sort()).toEqual(files);
  });

  it.each(files)("%s yields exactly the folders EXPECTED.md lists", (file) => {
    const result = parseScanRequest(loadFixture(file));
    expect(foldersOf(result)).toEqual(expected[file]);
  });

  it.each(files)("%s is attributed to its app and answered by kind", (file) => {
    const result = parseScanRequest(loadFixture(file));
    const app = file.split("-")[0];
    expect(result.kind).not.toBe("invalid");
    if (result.kind === "invalid") return;
    if (file.endsWith("-test.json")) expect(result.kind).toBe("test");
    if ((expected[file] ?? []).length > 0) expect(result.kind).toBe("scan");
    else expect(["test", "ignored"]).toContain(result.kind);
    // Health payloads carry no series/movie object, so nothing in them names the app.
    const source = file.includes("-health") ? "unknown" : app;
    expect(result.source).toBe(source);
  });

  it("never offers a recycleBinPath or a download client's sourcePath as a scan target", () => {
    let checked = 0;
    for (const file of files) {
      const payload = loadFixture(file);
      const result = parseScanRequest(payload);
      const offered = new Set(result.kind === "scan" ? result.paths.map((requested) => requested.path) : []);
      for (const outside of collectStrings(payload, ["recycleBinPath", "sourcePath"])) {
        expect(offered.has(outside)).toBe(false);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});

function collectStrings(value: unknown, keys: string[]): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => collectStrings(item, keys));
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    keys.includes(key) && typeof inner === "string" ? [inner] : collectStrings(inner, keys),
  );
}
