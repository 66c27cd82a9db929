import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { UserError } from "../../src/domain.js";
import { openPlexLibraryDb, type PlexLibraryDb } from "../../src/targets/plex/library-db.js";
import { buildPlexDb, copyFixtureDb, hasFixtureDb } from "./helpers/plex-db.js";

let opened: PlexLibraryDb | undefined;
afterEach(() => opened?.close());

describe.skipIf(!hasFixtureDb)("the real Plex database", () => {
  it("lists the four sections with their folders and API type names", () => {
    opened = openPlexLibraryDb(copyFixtureDb());
    expect(opened.listLibraries()).toEqual([
      { id: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] },
      { id: "2", title: "TV Shows", type: "show", locations: ["/data/TV-Shows"] },
      { id: "3", title: "Photos", type: "photo", locations: ["/data/Photos"] },
      { id: "5", title: "Music", type: "artist", locations: ["/data/Music"] },
    ]);
  });

  it("finds a file Plex knows and not its folder or a sibling name", () => {
    opened = openPlexLibraryDb(copyFixtureDb());
    expect(opened.hasFile("/data/Movies/Sintel (2010).mkv")).toBe(true);
    expect(opened.hasFile("/data/Movies")).toBe(false);
    expect(opened.hasFile("/data/Movies/Sintel (2010).mkv.part")).toBe(false);
    expect(opened.hasFile("/Sintel (2010).mkv")).toBe(false);
  });
});

describe("a database built with Plex's tables", () => {
  it("keeps every location of a section with several folders, and a section without any", () => {
    opened = openPlexLibraryDb(
      buildPlexDb([
        { id: 3, name: "Films", type: 1, locations: ["/mnt/a/Films", "/mnt/b/Films"] },
        { id: 7, name: "Empty", type: 42, locations: [] },
      ]),
    );
    expect(opened.listLibraries()).toEqual([
      { id: "3", title: "Films", type: "movie", locations: ["/mnt/a/Films", "/mnt/b/Films"] },
      { id: "7", title: "Empty", type: "42", locations: [] },
    ]);
  });

  it("treats a trashed media part as absent", () => {
    const file = buildPlexDb([], [{ file: "/tv/Show/S01E01.mkv", deleted: true }, { file: "/tv/Show/S01E02.mkv" }]);
    opened = openPlexLibraryDb(file);
    expect(opened.hasFile("/tv/Show/S01E01.mkv")).toBe(false);
    expect(opened.hasFile("/tv/Show/S01E02.mkv")).toBe(true);
  });

  it("matches non-ASCII and quote-laden paths byte for byte", () => {
    const weird = `/media/Amélie Æon Flux "it's" $(x) \`y\`/Æon.mkv`;
    opened = openPlexLibraryDb(buildPlexDb([], [{ file: weird }]));
    expect(opened.hasFile(weird)).toBe(true);
    expect(opened.hasFile(weird.normalize("NFD"))).toBe(false);
  });

  it("reads a read-only file and leaves its bytes untouched", () => {
    const file = buildPlexDb([{ id: 1, name: "M", type: 1, locations: ["/m"] }], [{ file: "/m/a.mkv" }]);
    chmodSync(file, 0o444);
    const before = readFileSync(file);
    opened = openPlexLibraryDb(file);
    expect(opened.listLibraries()).toHaveLength(1);
    expect(opened.hasFile("/m/a.mkv")).toBe(true);
    opened.close();
    opened = undefined;
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});

describe("opening errors", () => {
  it("names the missing file and PLEX_DATABASE_PATH", () => {
    const missing = path.join(path.dirname(buildPlexDb([])), "nope.db");
    expect(() => openPlexLibraryDb(missing)).toThrow(UserError);
    expect(() => openPlexLibraryDb(missing)).toThrow(/nope\.db \(PLEX_DATABASE_PATH\): the file is missing/);
  });

  it("refuses a file that is not a Plex database", () => {
    const file = path.join(path.dirname(buildPlexDb([])), "other.db");
    writeFileSync(file, "this is not sqlite at all, just text padding ".repeat(20));
    expect(() => openPlexLibraryDb(file)).toThrow(/does not look like a Plex library database/);
  });
});
