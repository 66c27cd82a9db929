import { describe, expect, it } from "vitest";
import { parseScanRequest } from "../../src/triggers/index.js";
import { expectScan, foldersOf } from "./helpers.js";

const series = { id: 1, title: "Show", path: "/tv/Show" };

describe("Sonarr webhooks", () => {
  it("joins relativePath under series.path when the file has no absolute path", () => {
    const result = expectScan(
      parseScanRequest({ eventType: "Download", series, episodeFile: { relativePath: "Season 1/Show - S01E01.mkv" } }),
    );
    expect(result).toEqual({
      kind: "scan",
      source: "sonarr",
      event: "Download",
      paths: [{ path: "/tv/Show/Season 1/Show - S01E01.mkv", kind: "file" }],
    });
  });

  it("joins a Windows Sonarr's relative path with backslashes under D:\\TV", () => {
    const result = expectScan(
      parseScanRequest({
        eventType: "Download",
        series: { path: "D:\\TV\\Show\\" },
        episodeFile: { relativePath: "Season 1\\Show - S01E01.mkv" },
      }),
    );
    expect(result.paths).toEqual([{ path: "D:\\TV\\Show\\Season 1\\Show - S01E01.mkv", kind: "file" }]);
  });

  it("prefers the absolute path over series.path + relativePath when both are sent", () => {
    const result = expectScan(
      parseScanRequest({
        eventType: "Download",
        series,
        episodeFile: { relativePath: "Season 1/a.mkv", path: "/other/Show/Season 1/a.mkv" },
      }),
    );
    expect(result.paths).toEqual([{ path: "/other/Show/Season 1/a.mkv", kind: "file" }]);
  });

  it("returns every Import Complete file once, so each distinct season folder is scanned", () => {
    const result = expectScan(
      parseScanRequest({
        eventType: "Download",
        series,
        episodeFiles: [{ relativePath: "Season 1/e1.mkv" }, { relativePath: "Season 2/e1.mkv" }, { relativePath: "Season 2/e1.mkv" }],
      }),
    );
    expect(result.paths).toHaveLength(2);
    expect(foldersOf(result)).toEqual(["/tv/Show/Season 1", "/tv/Show/Season 2"]);
  });

  it("adds the replaced files of an upgrade but not their recycle-bin copies", () => {
    const result = expectScan(
      parseScanRequest({
        eventType: "Download",
        isUpgrade: true,
        series,
        episodeFile: { path: "/tv/Show/Season 1/new.mkv" },
        deletedFiles: [{ path: "/tv/Show/Specials/old.mkv", recycleBinPath: "/recycle/old.mkv" }],
      }),
    );
    expect(result.paths.map((requested) => requested.path)).toEqual(["/tv/Show/Season 1/new.mkv", "/tv/Show/Specials/old.mkv"]);
  });

  it("returns both the previous and the new path of every renamed file", () => {
    const result = expectScan(
      parseScanRequest({
        eventType: "Rename",
        series,
        renamedEpisodeFiles: [{ previousRelativePath: "Season 1/old.mkv", relativePath: "Season 01/new.mkv" }],
      }),
    );
    expect(foldersOf(result)).toEqual(["/tv/Show/Season 01", "/tv/Show/Season 1"]);
  });

  it("scans the whole series folder for a Rename that lists no files", () => {
    const result = expectScan(parseScanRequest({ eventType: "Rename", series }));
    expect(result.paths).toEqual([{ path: "/tv/Show", kind: "folder" }]);
  });

  it("keeps non-ASCII names exactly as sent", () => {
    const result = expectScan(
      parseScanRequest({
        eventType: "EpisodeFileDelete",
        series: { path: "/tv/Shōgun (2024)" },
        episodeFile: { relativePath: "Season 1/Shōgun - S01E01 - 安針.mkv" },
      }),
    );
    expect(result.paths[0]?.path).toBe("/tv/Shōgun (2024)/Season 1/Shōgun - S01E01 - 安針.mkv");
  });

  it("is invalid, naming the field, when a Download has no episodeFile", () => {
    expect(parseScanRequest({ eventType: "Download", series })).toEqual({
      kind: "invalid",
      reason: "sonarr Download: episodeFile is missing",
    });
  });

  it("is invalid when a relativePath arrives without series.path", () => {
    const result = parseScanRequest({ eventType: "Download", series: {}, episodeFile: { relativePath: "a.mkv" } });
    expect(result).toEqual({
      kind: "invalid",
      reason: "sonarr Download: episodeFile.relativePath needs series.path, which is missing",
    });
  });

  it("is invalid when series.path is not a string", () => {
    expect(parseScanRequest({ eventType: "SeriesDelete", series: { path: 42 } })).toEqual({
      kind: "invalid",
      reason: "sonarr SeriesDelete: series.path must be a string",
    });
  });

  it("is invalid when episodeFiles is not a list or holds a non-object", () => {
    const notList = parseScanRequest({ eventType: "Download", series, episodeFiles: "a.mkv" });
    const badEntry = parseScanRequest({ eventType: "Download", series, episodeFiles: [{ path: "/tv/a.mkv" }, 3] });
    expect(notList).toEqual({ kind: "invalid", reason: "sonarr Download: episodeFiles must be a list" });
    expect(badEntry).toEqual({ kind: "invalid", reason: "sonarr Download: episodeFiles[1] must be an object" });
  });

  it("is invalid when an Import Complete list is empty", () => {
    expect(parseScanRequest({ eventType: "Download", series, episodeFiles: [] }).kind).toBe("invalid");
  });

  it("treats a blank path as absent and falls back to relativePath", () => {
    const result = expectScan(parseScanRequest({ eventType: "Download", series, episodeFile: { path: "  ", relativePath: "S1/a.mkv" } }));
    expect(result.paths[0]?.path).toBe("/tv/Show/S1/a.mkv");
  });

  it("ignores SeriesAdd, Grab and ManualInteractionRequired with a reason", () => {
    for (const eventType of ["SeriesAdd", "Grab", "ManualInteractionRequired"]) {
      const result = parseScanRequest({ eventType, series });
      expect(result).toMatchObject({ kind: "ignored", source: "sonarr", event: eventType });
      if (result.kind === "ignored") expect(result.reason).toContain("no files");
    }
  });

  it("ignores an event it does not know instead of rejecting it", () => {
    const result = parseScanRequest({ eventType: "SeriesArchived", series });
    expect(result).toMatchObject({ kind: "ignored", source: "sonarr", event: "SeriesArchived" });
  });

  it("matches event names case-insensitively and reports the canonical name", () => {
    const result = expectScan(parseScanRequest({ eventType: "seriesdelete", series }));
    expect(result.event).toBe("SeriesDelete");
  });
});
