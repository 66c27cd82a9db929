import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openPlexItemsDb, type PlexItemsDb } from "../../../src/targets/plex/library-items-db.js";
import { copyFixtureDb, hasFixtureDb } from "../../scan/helpers/plex-db.js";

const SHOW = "/data/TV-Shows/Game of Thrones";
const OLD_E02 = `${SHOW}/Game.of.Thrones.S01E02.mp4`;
const NEW_E02 = `${SHOW}/Game.of.Thrones.S01E02.1080p.mkv`;

/**
 * A copy of the real Plex database where Sonarr upgraded S01E02: Plex added
 * the new file to the same episode (metadata item 71 of season 69) and put
 * the old part in the trash. Only media_items and media_parts are written:
 * metadata_items carries Plex's ICU triggers, which stock SQLite cannot run.
 */
function upgradedCopy(): string {
  const file = copyFixtureDb();
  const db = new Database(file);
  const media = db
    .prepare(
      "INSERT INTO media_items (library_section_id, section_location_id, metadata_item_id, created_at, updated_at) VALUES (2, 2, 71, 1700000000, 1700000000)",
    )
    .run();
  db.prepare("INSERT INTO media_parts (media_item_id, file, size, created_at, updated_at) VALUES (?, ?, 123, 1700000000, 1700000000)").run(
    media.lastInsertRowid,
    NEW_E02,
  );
  db.prepare("UPDATE media_parts SET deleted_at = 1700000001 WHERE file = ?").run(OLD_E02);
  db.close();
  return file;
}

let opened: PlexItemsDb | undefined;
afterEach(() => {
  opened?.close();
  opened = undefined;
});

describe.skipIf(!hasFixtureDb)("items in the real Plex database", () => {
  it("finds an episode's item and its season, and a movie's item without a parent", () => {
    opened = openPlexItemsDb(copyFixtureDb());
    expect([...opened.findFiles("2", [`${SHOW}/Game.of.Thrones.S01E01.mkv`]).values()]).toEqual([
      { file: `${SHOW}/Game.of.Thrones.S01E01.mkv`, ratingKey: "70", parentRatingKey: "69" },
    ]);
    expect([...opened.findFiles("1", ["/data/Movies/Sintel (2010).mkv"]).values()]).toEqual([
      { file: "/data/Movies/Sintel (2010).mkv", ratingKey: "57" },
    ]);
  });

  it("does not find a file in another section, nor one Plex never saw", () => {
    opened = openPlexItemsDb(copyFixtureDb());
    expect(opened.findFiles("2", ["/data/Movies/Sintel (2010).mkv", `${SHOW}/Game.of.Thrones.S09E99.mkv`]).size).toBe(0);
  });

  it("after an upgrade, finds the new file on the same episode and treats the trashed old one as gone", () => {
    opened = openPlexItemsDb(upgradedCopy());
    const found = opened.findFiles("2", [NEW_E02, OLD_E02]);
    expect([...found.values()]).toEqual([{ file: NEW_E02, ratingKey: "71", parentRatingKey: "69" }]);
  });

  it("counts the section's deleted items, and only that section's", () => {
    opened = openPlexItemsDb(copyFixtureDb());
    expect([opened.countDeleted("1"), opened.countDeleted("2")]).toEqual([0, 0]);
    opened.close();
    opened = openPlexItemsDb(upgradedCopy());
    expect([opened.countDeleted("1"), opened.countDeleted("2")]).toEqual([0, 1]);
  });
});
