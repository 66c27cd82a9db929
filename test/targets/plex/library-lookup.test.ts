import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PlexApiClient } from "../../../src/targets/plex/api.js";
import { createPlexLookup } from "../../../src/targets/plex/library-lookup.js";
import { locateThroughFolders } from "../../../src/targets/plex/locate-api.js";
import { startFakePlex, type FakePlex } from "../../fakes/plex.js";
import { buildPlexDb } from "../../scan/helpers/plex-db.js";

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

/** A database with Plex's column names: show 1 → season 3 → episode 10 (E01), and two deleted parts in section 2. */
function buildItemsDb(): string {
  const file = buildPlexDb([{ id: 2, name: "TV", type: 2, locations: ["/data/TV"] }]);
  const db = new Database(file);
  db.exec(`
    CREATE TABLE media_items (id INTEGER PRIMARY KEY, library_section_id integer, metadata_item_id integer, deleted_at integer);
    CREATE TABLE metadata_items (id INTEGER PRIMARY KEY, library_section_id integer, parent_id integer, metadata_type integer, deleted_at integer);
    INSERT INTO metadata_items VALUES (1, 2, NULL, 2, NULL), (3, 2, 1, 3, NULL), (10, 2, 3, 4, NULL), (11, 2, 3, 4, NULL);
    INSERT INTO media_items VALUES (100, 2, 10, NULL), (101, 2, 11, NULL);
  `);
  db.prepare("INSERT INTO media_parts (media_item_id, file, size, deleted_at) VALUES (100, ?, 1, NULL)").run(
    "/data/TV/Show/Season 1/E01.mkv",
  );
  db.prepare("INSERT INTO media_parts (media_item_id, file, size, deleted_at) VALUES (101, ?, 1, 1700000000)").run(
    "/data/TV/Show/Season 1/E02.mkv",
  );
  db.prepare("INSERT INTO media_parts (media_item_id, file, size, deleted_at) VALUES (101, ?, 1, 1700000000)").run(
    "/data/TV/Show/Season 1/E03.mkv",
  );
  db.close();
  return file;
}
