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
    expect(result).toEqual({
      kind: "invalid",
      reason: 'sonarr Download: path "/tv/Show/S1\\\\0/b.mkv" contains a NUL byte (U+0000) at character 12',
    });
  });

  it("is invalid when any path carries another C0 or C1 control character, naming it by code point only", () => {
    for (const [char, named] of [
      ["\t", "a tab (U+0009)"],
      ["\n", "a line feed (U+000A)"],
      ["\r", "a carriage return (U+000D)"],
      ["\u001f", "a control character (U+001F)"],
      ["\u007f", "a control character (U+007F)"],
      ["\u0085", "a control character (U+0085)"],
      ["\u009f", "a control character (U+009F)"],
    ] as const) {
      const result = parseScanRequest({
        eventType: "Download",
        movie: { folderPath: `/movies/M${char}` },
        movieFile: { relativePath: "m.mkv" },
      });
      expect(result.kind).toBe("invalid");
      const reason = result.kind === "invalid" ? result.reason : "";
      expect(reason).toContain(`contains ${named} at character 10`);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters.
      expect(reason).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    }
  });

  it("takes the characters just outside the control ranges", () => {
    for (const char of [" ", "~", "\u00a0", "é"]) {
      const result = parseScanRequest({
        eventType: "Download",
        movie: { folderPath: `/movies/M${char}` },
        movieFile: { relativePath: "m.mkv" },
      });
      expect(result.kind).toBe("scan");
    }
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
