import { describe, expect, it } from "vitest";
import { parseScanRequest } from "../../src/triggers/index.js";
import { expectScan, foldersOf } from "./helpers.js";

describe("Lidarr webhooks", () => {
  const artist = { name: "Sigur Rós", path: "/music/Sigur Rós" };

  it("returns every track of a multi-disc album so both disc folders are scanned", () => {
    const result = expectScan(
      parseScanRequest({
        eventType: "Download",
        artist,
        trackFiles: [{ path: "/music/Sigur Rós/Takk (2005)/CD1/01.flac" }, { path: "/music/Sigur Rós/Takk (2005)/CD2/01.flac" }],
      }),
    );
    expect(result.source).toBe("lidarr");
    expect(foldersOf(result)).toEqual(["/music/Sigur Rós/Takk (2005)/CD1", "/music/Sigur Rós/Takk (2005)/CD2"]);
  });

  it("adds the folders of files an upgrade replaced", () => {
    const result = expectScan(
      parseScanRequest({
        eventType: "Download",
        isUpgrade: true,
        artist,
        trackFiles: [{ path: "/music/Sigur Rós/Takk/01.flac" }],
        deletedFiles: [{ path: "/music/Sigur Rós/Takk (old)/01.mp3" }],
      }),
    );
    expect(foldersOf(result)).toEqual(["/music/Sigur Rós/Takk", "/music/Sigur Rós/Takk (old)"]);
  });

  it("is invalid when a Download has no trackFiles", () => {
    expect(parseScanRequest({ eventType: "Download", artist })).toEqual({
      kind: "invalid",
      reason: "lidarr Download: trackFiles is missing or empty",
    });
  });

  it("scans the artist folder on AlbumDelete because the payload names no album folder", () => {
    const result = expectScan(parseScanRequest({ eventType: "AlbumDelete", artist, album: { title: "Takk" } }));
    expect(result.paths).toEqual([{ path: "/music/Sigur Rós", kind: "folder" }]);
  });

  it("ignores DownloadFailure and ImportFailure", () => {
    for (const eventType of ["DownloadFailure", "ImportFailure", "ArtistAdd"]) {
      expect(parseScanRequest({ eventType, artist })).toMatchObject({ kind: "ignored", source: "lidarr" });
    }
  });
});

describe("Readarr webhooks", () => {
  const author = { name: "Stanisław Lem", path: "/books/Stanisław Lem" };

  it("returns every book file of a Download", () => {
    const result = expectScan(
      parseScanRequest({
        eventType: "Download",
        author,
        book: { title: "Solaris" },
        bookFiles: [{ path: "/books/Stanisław Lem/Solaris/Solaris.epub" }],
      }),
    );
    expect(result).toMatchObject({ source: "readarr", event: "Download" });
    expect(foldersOf(result)).toEqual(["/books/Stanisław Lem/Solaris"]);
  });

  it("scans the file's folder on Retag and the author folder on BookDelete", () => {
    const retag = expectScan(
      parseScanRequest({ eventType: "Retag", author, bookFile: { path: "/books/Stanisław Lem/Solaris/Solaris.m4b" } }),
    );
    const bookDelete = expectScan(parseScanRequest({ eventType: "BookDelete", author, deletedFiles: true }));
    expect(foldersOf(retag)).toEqual(["/books/Stanisław Lem/Solaris"]);
    expect(bookDelete.paths).toEqual([{ path: "/books/Stanisław Lem", kind: "folder" }]);
  });

  it("is invalid when a BookFileDelete file has no path", () => {
    expect(parseScanRequest({ eventType: "BookFileDelete", author, bookFile: { id: 3 } })).toEqual({
      kind: "invalid",
      reason: "readarr BookFileDelete: bookFile has neither path nor relativePath",
    });
  });

  it("ignores AuthorAdded", () => {
    expect(parseScanRequest({ eventType: "AuthorAdded", author })).toMatchObject({ kind: "ignored", source: "readarr" });
  });
});
