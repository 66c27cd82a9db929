import { describe, expect, it } from "vitest";
import { parseScanRequest } from "../../src/triggers/index.js";
import { expectScan, loadFixture, webhookFixtures } from "./helpers.js";

/** The real upgrade payload, its replaced file given the new file's own path (the name did not change). */
function inPlace(name: string, fileKey: "movieFile" | "episodeFile"): Record<string, unknown> {
  const body = loadFixture(name) as Record<string, unknown>;
  const file = body[fileKey] as { path: string; relativePath: string };
  const [deleted] = body.deletedFiles as Array<Record<string, unknown>>;
  return { ...body, deletedFiles: [{ ...deleted, path: file.path, relativePath: file.relativePath }] };
}

describe.skipIf(!webhookFixtures.run)("an upgrade that kept the file's name", () => {
  it("is a Radarr import of that path with its item refreshed, not a deletion", () => {
    const body = inPlace("radarr-download-upgrade.json", "movieFile");
    const path = (body.movieFile as { path: string }).path;
    expect(expectScan(parseScanRequest(body)).paths).toEqual([{ path, kind: "file", refresh: true }]);
  });

  it("is a Sonarr import of that path with its item refreshed, not a deletion", () => {
    const body = inPlace("sonarr-download-upgrade.json", "episodeFile");
    const path = (body.episodeFile as { path: string }).path;
    expect(expectScan(parseScanRequest(body)).paths).toEqual([{ path, kind: "file", refresh: true }]);
  });

  it("still deletes a replaced file whose name changed", () => {
    const body = loadFixture("radarr-download-upgrade.json") as { movieFile: { path: string }; deletedFiles: Array<{ path: string }> };
    expect(expectScan(parseScanRequest(body)).paths).toEqual([
      { path: body.movieFile.path, kind: "file" },
      { path: body.deletedFiles[0]?.path, kind: "file", deleted: true },
    ]);
  });
});
