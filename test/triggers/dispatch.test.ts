import { describe, expect, it } from "vitest";
import { parseScanRequest } from "../../src/triggers/index.js";

describe("parseScanRequest dispatch", () => {
  it.each([
    ["null", null],
    ["a string", "eventType=Manual"],
    ["a number", 42],
    ["an array", [{ eventType: "Test" }]],
  ])("is invalid when the body is %s", (_label, body) => {
    expect(parseScanRequest(body)).toEqual({
      kind: "invalid",
      reason: "the body must be a JSON object or form fields",
    });
  });

  it("is invalid when eventType is missing, naming it", () => {
    expect(parseScanRequest({ series: { path: "/tv/Show" } })).toEqual({ kind: "invalid", reason: "eventType is missing" });
  });

  it("is invalid when eventType is not a string", () => {
    expect(parseScanRequest({ eventType: ["Download"] })).toEqual({ kind: "invalid", reason: "eventType must be a string" });
  });

  it("answers test for a Test event whatever else the body holds, naming the app when it can", () => {
    expect(parseScanRequest({ eventType: "Test", movie: { folderPath: "C:\\testpath" } })).toEqual({
      kind: "test",
      source: "radarr",
      event: "Test",
    });
    expect(parseScanRequest({ eventType: "test" })).toEqual({ kind: "test", source: "unknown", event: "Test" });
  });

  it("accepts the legacy EventType spelling for Test like plex_autoscan", () => {
    expect(parseScanRequest({ EventType: "Test" })).toMatchObject({ kind: "test" });
  });

  it("ignores Health and ApplicationUpdate even though nothing in them names the app", () => {
    expect(parseScanRequest({ eventType: "Health", level: "warning", message: "Disk /tv is full" })).toEqual({
      kind: "ignored",
      source: "unknown",
      event: "Health",
      reason: "Health carries no files to scan",
    });
    expect(parseScanRequest({ eventType: "ApplicationUpdate" })).toMatchObject({ kind: "ignored" });
  });

  it("is invalid when the shape names no app and the event needs one", () => {
    const result = parseScanRequest({ eventType: "Download", episodeFileX: {} });
    expect(result.kind).toBe("invalid");
    if (result.kind === "invalid") expect(result.reason).toMatch(/no series, movie, artist or author/);
  });

  it("tells the four apps apart by their objects", () => {
    const sources = [
      { eventType: "SeriesDelete", series: { path: "/tv/A" } },
      { eventType: "MovieDelete", movie: { folderPath: "/movies/A" } },
      { eventType: "ArtistDelete", artist: { path: "/music/A" } },
      { eventType: "AuthorDelete", author: { path: "/books/A" } },
    ].map((body) => {
      const result = parseScanRequest(body);
      return result.kind === "scan" ? result.source : result.kind;
    });
    expect(sources).toEqual(["sonarr", "radarr", "lidarr", "readarr"]);
  });

  it("is invalid when any path carries a NUL byte, so nothing of the request is queued", () => {
    const result = parseScanRequest({
      eventType: "Download",
      series: { path: "/tv/Show" },
      episodeFiles: [{ path: "/tv/Show/S1/a.mkv" }, { path: "/tv/Show/S1\0/b.mkv" }],
    });
    expect(result).toEqual({ kind: "invalid", reason: "sonarr Download: a path contains a NUL byte" });
  });

  it("does not read keys from Object.prototype", () => {
    const inherited: object = Object.create({ series: { path: "/tv/Evil" } }) as object;
    const body = Object.assign(inherited, { eventType: "SeriesDelete" });
    expect(parseScanRequest(body)).toMatchObject({ kind: "invalid" });
  });

  it("shortens an absurdly long unknown eventType before it reaches a log line", () => {
    const result = parseScanRequest({ eventType: "X".repeat(10_000), series: { path: "/tv/A" } });
    expect(result.kind).toBe("ignored");
    if (result.kind === "ignored") expect(result.event.length).toBeLessThanOrEqual(65);
  });
});
