import { describe, expect, it } from "vitest";
import { parseScanRequest } from "../../src/triggers/index.js";
import { expectScan, foldersOf } from "./helpers.js";

const movie = { id: 7, title: "Amélie", folderPath: "/movies/Amélie (2001)" };

describe("Radarr webhooks", () => {
  it("joins movieFile.relativePath under movie.folderPath, like plex_autoscan's hand-made payloads", () => {
    const result = expectScan(
      parseScanRequest({
        eventType: "Download",
        movie,
        movieFile: { relativePath: "Amélie (2001).mkv" },
        remoteMovie: { tmdbId: 1 },
      }),
    );
    expect(result).toMatchObject({ source: "radarr", event: "Download" });
    expect(result.paths).toEqual([{ path: "/movies/Amélie (2001)/Amélie (2001).mkv", kind: "file" }]);
  });

  it("joins under a UNC folder with backslashes", () => {
    const result = expectScan(
      parseScanRequest({
        eventType: "MovieFileDelete",
        movie: { folderPath: "\\\\nas\\media\\Movies\\Heat (1995)" },
        movieFile: { relativePath: "Heat (1995).mkv" },
      }),
    );
    expect(result.paths[0]?.path).toBe("\\\\nas\\media\\Movies\\Heat (1995)\\Heat (1995).mkv");
  });

  it("scans movie.folderPath as a folder on MovieDelete", () => {
    const result = expectScan(parseScanRequest({ eventType: "MovieDelete", movie, deletedFiles: false }));
    expect(result.paths).toEqual([{ path: "/movies/Amélie (2001)", kind: "folder" }]);
  });

  it("is invalid when MovieDelete has no folderPath", () => {
    expect(parseScanRequest({ eventType: "MovieDelete", movie: { title: "x" } })).toEqual({
      kind: "invalid",
      reason: "radarr MovieDelete: movie.folderPath is missing",
    });
  });

  it("is invalid when movie is not an object", () => {
    expect(parseScanRequest({ eventType: "MovieDelete", movie: "Heat" })).toEqual({
      kind: "invalid",
      reason: "radarr MovieDelete: movie must be an object",
    });
  });

  it("is invalid when a renamed file has neither previousPath nor previousRelativePath", () => {
    const result = parseScanRequest({
      eventType: "Rename",
      movie,
      renamedMovieFiles: [{ path: "/movies/Amélie (2001)/new.mkv" }],
    });
    expect(result).toEqual({
      kind: "invalid",
      reason: "radarr Rename: renamedMovieFiles[0] has neither previousPath nor previousRelativePath",
    });
  });

  it("scans the old and the new folder when a rename moved the file", () => {
    const result = expectScan(
      parseScanRequest({
        eventType: "Rename",
        movie,
        renamedMovieFiles: [{ previousPath: "/movies/Amelie/a.mkv", path: "/movies/Amélie (2001)/a.mkv" }],
      }),
    );
    expect(foldersOf(result)).toEqual(["/movies/Amelie", "/movies/Amélie (2001)"]);
  });

  it("ignores MovieAdded and Grab", () => {
    expect(parseScanRequest({ eventType: "MovieAdded", movie })).toMatchObject({ kind: "ignored", source: "radarr" });
    expect(parseScanRequest({ eventType: "Grab", movie })).toMatchObject({ kind: "ignored", source: "radarr" });
  });
});
