import { describe, expect, it } from "vitest";
import { parseScanRequest, type TriggerResult } from "../../src/triggers/index.js";
import { listFixtureFiles, loadFixture, webhookFixtures } from "./helpers.js";

const series = { path: "/tv/Show" };
const importComplete = (...episodeFiles: object[]) => parseScanRequest({ eventType: "Download", series, episodeFiles });
const batchEndOf = (result: TriggerResult) => (result.kind === "scan" ? (result.batchEnd ?? false) : undefined);

describe.runIf(webhookFixtures.run)("which webhook fixtures end a batch", () => {
  // Sonarr sends one Download per file, then Import Complete for the whole import; Radarr, Lidarr and
  // Readarr send one Download per import (a movie's file, an album's tracks, a book's files).
  const ENDS = new Set([
    "sonarr-download-import-complete.json",
    "radarr-download.json",
    "radarr-download-upgrade.json",
    "lidarr-download.json",
    "readarr-download.json",
  ]);

  it("is exactly Sonarr's Import Complete and the other apps' Download; every other scan waits its quiet time", () => {
    const scans = listFixtureFiles().filter((name) => parseScanRequest(loadFixture(name)).kind === "scan");
    expect(scans.filter((name) => batchEndOf(parseScanRequest(loadFixture(name))) === true).sort()).toEqual([...ENDS].sort());
    expect(scans.length).toBeGreaterThan(ENDS.size);
  });
});

describe("a batch's end", () => {
  it("is not Sonarr's per-file Download, which more files of the same import may follow", () => {
    const perFile = parseScanRequest({ eventType: "Download", series, episodeFile: { relativePath: "Season 1/e1.mkv" } });
    expect(batchEndOf(perFile)).toBe(false);
  });

  it("marks Import Complete whose files all lie in the series folder", () => {
    const done = importComplete({ relativePath: "Season 1/e1.mkv" }, { path: "/tv/Show/Season 1/e2.mkv" });
    expect(batchEndOf(done)).toBe(true);
  });

  it("refuses an Import Complete naming a file outside its series folder, naming both", () => {
    const hostile = importComplete({ path: "/tv/Show/Season 1/e1.mkv" }, { path: "/tv/Other Show/Season 1/e1.mkv" });
    expect(hostile).toEqual({
      kind: "invalid",
      reason: 'sonarr Download: "/tv/Other Show/Season 1/e1.mkv" lies outside series.path "/tv/Show"',
    });
    // "/tv/Show 2" is not inside "/tv/Show": whole components, not a string prefix.
    const sibling = importComplete({ path: "/tv/Show 2/Season 1/e1.mkv" });
    expect(sibling.kind).toBe("invalid");
  });

  it.each([
    [
      "an empty Import Complete list, as before",
      { eventType: "Download", series, episodeFiles: [] },
      "sonarr Download: episodeFiles is missing or empty",
    ],
    [
      "a Radarr import whose file lies outside movie.folderPath",
      { eventType: "Download", movie: { folderPath: "/movies/Arrival (2016)" }, movieFile: { path: "/etc/passwd" } },
      'radarr Download: "/etc/passwd" lies outside movie.folderPath "/movies/Arrival (2016)"',
    ],
  ])("refuses %s", (_name, body, reason) => {
    expect(parseScanRequest(body)).toEqual({ kind: "invalid", reason });
  });

  it("is not claimed by a hand-written import without its media folder: that waits its quiet time", () => {
    const result = parseScanRequest({
      eventType: "Download",
      movie: { title: "Arrival" },
      movieFile: { path: "/movies/Arrival (2016)/a.mkv" },
    });
    expect(result.kind).toBe("scan");
    expect(batchEndOf(result)).toBe(false);
  });

  it("takes a Windows series folder and its files in any separator", () => {
    const result = parseScanRequest({
      eventType: "Download",
      series: { path: "D:\\TV\\Show" },
      episodeFiles: [{ relativePath: "Season 1\\e1.mkv" }, { path: "D:\\TV\\Show\\Season 1\\e2.mkv" }],
    });
    expect(batchEndOf(result)).toBe(true);
  });
});
