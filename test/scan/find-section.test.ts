import { afterEach, describe, expect, it } from "vitest";
import type { Library } from "../../src/domain.js";
import { checkSection, findSectionFor, parseSectionId } from "../../src/targets/plex/find-section.js";
import { openPlexLibraryDb, type PlexLibraryDb } from "../../src/targets/plex/library-db.js";
import { buildPlexDb, copyFixtureDb, hasFixtureDb } from "./helpers/plex-db.js";

let db: PlexLibraryDb | undefined;
afterEach(() => db?.close());

describe("parseSectionId", () => {
  it.each(["1", "29", " 7 ", "007"])("accepts %j", (raw) => {
    expect(parseSectionId(raw)).toBe(String(Number(raw)));
  });

  it.each(["0", "-1", "1.5", "abc", "", "1e3", "0x10", "99999999999999999999"])("rejects %j as a usage error", (raw) => {
    expect(() => parseSectionId(raw)).toThrow(
      expect.objectContaining({ name: "UserError", exitCode: 2, message: expect.stringContaining("positive integer") }),
    );
  });
});

describe.skipIf(!hasFixtureDb)("section detection against the real Plex database", () => {
  it.each([
    ["/data/Movies/Sintel (2010)", "1"],
    ["/data/TV-Shows/Some Show/Season 1", "2"],
    ["/data/Music/Artist/Album", "5"],
    ["/data/Photos", "3"],
  ])("puts %s in section %s", (folder, id) => {
    db = openPlexLibraryDb(copyFixtureDb());
    expect(findSectionFor(folder, db.listLibraries()).id).toBe(id);
  });

  it("rejects a folder that only shares a name prefix with a library, listing the libraries", () => {
    db = openPlexLibraryDb(copyFixtureDb());
    const attempt = () => findSectionFor("/data/Movies 2/Film", db!.listLibraries());
    expect(attempt).toThrow(/\/data\/Movies 2\/Film is not inside any Plex library/);
    expect(attempt).toThrow(/1: Movies \[movie\] \/data\/Movies\n {2}2: TV Shows \[show\] \/data\/TV-Shows/);
  });
});

describe("section detection against a database the test builds", () => {
  const sections = [
    { id: 1, name: "Movies", type: 1, locations: ["/data/Media/Movies"] },
    { id: 4, name: "4K Movies", type: 1, locations: ["/data/Media/Movies/4K", "/mnt/other/4K"] },
    { id: 6, name: "Kids", type: 2, locations: ["/data/Media/Kids"] },
    { id: 7, name: "Kids (mirror)", type: 2, locations: ["/data/Media/Kids"] },
  ];
  const libraries = (): Library[] => {
    db = openPlexLibraryDb(buildPlexDb(sections));
    return db.listLibraries();
  };

  it("picks the library with the longest matching location", () => {
    expect(findSectionFor("/data/Media/Movies/4K/Dune (2021)", libraries()).id).toBe("4");
    expect(findSectionFor("/data/Media/Movies/Dune (2021)", libraries()).id).toBe("1");
    expect(findSectionFor("/mnt/other/4K/Dune", libraries()).id).toBe("4");
  });

  it("accepts a library's root folder itself", () => {
    expect(findSectionFor("/data/Media/Movies", libraries()).id).toBe("1");
  });

  it("calls two libraries on the same folder ambiguous and lists only those", () => {
    const attempt = () => findSectionFor("/data/Media/Kids/Bluey", libraries());
    expect(attempt).toThrow(
      /belongs to several libraries; pick one with --section:\n {2}6: Kids \[show\] \/data\/Media\/Kids\n {2}7: Kids \(mirror\)/,
    );
    expect(attempt).toThrow(expect.objectContaining({ exitCode: 1 }));
  });

  it("rejects a path outside every library", () => {
    expect(() => findSectionFor("/srv/elsewhere", libraries())).toThrow(/not inside any Plex library:\n {2}1: Movies/);
  });

  it("accepts an explicit section that holds the folder", () => {
    expect(checkSection("4", "/mnt/other/4K/Dune", libraries()).title).toBe("4K Movies");
  });

  it("rejects an unknown section as a usage error listing the libraries", () => {
    const attempt = () => checkSection("3", "/data/Media/Movies/Dune", libraries());
    expect(attempt).toThrow(/there is no library section 3:\n {2}1: Movies/);
    expect(attempt).toThrow(expect.objectContaining({ exitCode: 2 }));
  });

  it("rejects an explicit section that does not hold the folder", () => {
    expect(() => checkSection("6", "/data/Media/Movies/Dune", libraries())).toThrow(
      /not inside section 6 \(Kids\); Plex would scan nothing/,
    );
  });
});
