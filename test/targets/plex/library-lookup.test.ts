import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PlexApiClient } from "../../../src/targets/plex/api.js";
import { createPlexLookup } from "../../../src/targets/plex/library-lookup.js";
import { locateThroughFolders } from "../../../src/targets/plex/locate-api.js";
import { startFakePlex, type FakePlex } from "../../fakes/plex.js";
import { buildPlexItemsDb } from "../../scan/helpers/plex-db.js";

let plex: FakePlex;
let api: PlexApiClient;

beforeEach(async () => {
  plex = await startFakePlex({
    sections: [
      { key: "2", title: "TV", type: "show", locations: ["/data/TV"] },
      { key: "4", title: "Films", type: "movie", locations: ["/a/Films", "/b/Films"] },
    ],
  });
  api = new PlexApiClient({ baseUrl: plex.url, token: plex.token });
});

afterEach(async () => {
  await plex.close();
});

const TV = { id: "2", locations: ["/data/TV"] };
const folderCalls = (): number => plex.requests.filter((r) => r.url.includes("/folder")).length;

describe("finding files through Plex's folder view", () => {
  it("walks root → show → season and returns each file's item and season", async () => {
    const e1 = plex.addItem("/data/TV/Show/Season 1/E01.mkv");
    plex.addItem("/data/TV/Show/Season 1/E02.mkv");
    plex.addItem("/data/TV/Other/Season 1/E01.mkv");
    const found = await locateThroughFolders(api, TV, ["/data/TV/Show/Season 1/E01.mkv"]);
    expect([...found.values()]).toEqual([{ file: e1.file, ratingKey: e1.ratingKey, parentRatingKey: e1.parentRatingKey }]);
    expect(folderCalls()).toBe(3);
  });

  it("lists each folder once however many files and folders are asked in one call", async () => {
    const files = [1, 2, 3].flatMap((s) => [1, 2, 3, 4].map((e) => `/data/TV/Show/Season ${s}/E0${e}.mkv`));
    for (const file of files) plex.addItem(file);
    const found = await locateThroughFolders(api, TV, files);
    expect(found.size).toBe(12);
    // root, the show, three seasons: not one walk per file.
    expect(folderCalls()).toBe(5);
  });

  it("treats a file in an unknown folder, an unknown file and a trashed part as absent", async () => {
    plex.addItem("/data/TV/Show/Season 1/E01.mkv");
    plex.removeFile("/data/TV/Show/Season 1/E01.mkv");
    await api.refresh("2", "/data/TV/Show/Season 1");
    const found = await locateThroughFolders(api, TV, [
      "/data/TV/Show/Season 1/E01.mkv",
      "/data/TV/Show/Season 1/E02.mkv",
      "/data/TV/Nope/Season 1/E01.mkv",
      "/elsewhere/E01.mkv",
    ]);
    expect(found.size).toBe(0);
  });

  it("enters the right location first in a section with several", async () => {
    const film = plex.addItem("/b/Films/Up (2009)/Up.mkv");
    plex.addItem("/a/Films/Up (2009)/Up.mkv");
    const found = await locateThroughFolders(api, { id: "4", locations: ["/a/Films", "/b/Films"] }, [film.file]);
    expect([...found.values()]).toEqual([{ file: film.file, ratingKey: film.ratingKey }]);
  });

  it("finds names with spaces, quotes, unicode and shell characters exactly", async () => {
    const odd = plex.addItem(`/data/TV/Amélie & "Co" $(x)/Saison 1/É01 [x].mkv`);
    const found = await locateThroughFolders(api, TV, [odd.file]);
    expect(found.get(odd.file)?.ratingKey).toBe(odd.ratingKey);
  });
});

describe("createPlexLookup", () => {
  it("answers from the database when PLEX_DATABASE_PATH can be read, without calling Plex", async () => {
    const databasePath = buildItemsDb();
    const lookup = createPlexLookup({ databasePath, api });
    const result = await lookup.locate([{ section: TV, files: ["/data/TV/Show/Season 1/E01.mkv", "/data/TV/Show/Season 1/E09.mkv"] }]);
    expect(result.source).toBe("database");
    expect([...(result.found[0]?.values() ?? [])]).toEqual([
      { file: "/data/TV/Show/Season 1/E01.mkv", ratingKey: "10", parentRatingKey: "3" },
    ]);
    expect(await lookup.countTrash({ id: "2", type: "show" })).toEqual({ source: "database", count: 2 });
    expect(plex.requests).toEqual([]);
  });

  it("falls back to the API and says why when the database cannot be opened", async () => {
    const item = plex.addItem("/data/TV/Show/Season 1/E01.mkv");
    const lookup = createPlexLookup({ databasePath: "/nonexistent/com.plexapp.plugins.library.db", api });
    const result = await lookup.locate([{ section: TV, files: [item.file] }]);
    expect(result.source).toBe("api");
    expect(result.databaseProblem).toContain("PLEX_DATABASE_PATH");
    expect(result.found[0]?.get(item.file)?.ratingKey).toBe(item.ratingKey);
    expect(await lookup.countTrash({ id: "2", type: "show" })).toMatchObject({ source: "api", count: 0 });
  });

  it("uses the API without a word when no database is configured", async () => {
    const lookup = createPlexLookup({ databasePath: "", api });
    expect(await lookup.countTrash({ id: "2", type: "show" })).toEqual({ source: "api", count: 0 });
  });
});

/** Show 1 → season 3 → episode 10 (E01) live, and two trashed parts in section 2. */
function buildItemsDb(): string {
  const section = { id: 2, name: "TV", type: 2, locations: ["/data/TV"] };
  return buildPlexItemsDb(
    [section],
    [
      { file: "/data/TV/Show/Season 1/E01.mkv", section: 2, ratingKey: 10, parent: 3 },
      { file: "/data/TV/Show/Season 1/E02.mkv", section: 2, ratingKey: 11, parent: 3, deleted: true },
      { file: "/data/TV/Show/Season 1/E03.mkv", section: 2, ratingKey: 12, parent: 3, deleted: true },
    ],
  );
}
