import Database from "better-sqlite3";
import { copyFixtureDb } from "../scan/helpers/plex-db.js";

export { hasFixtureDb } from "../scan/helpers/plex-db.js";

/**
 * A copy of the real Plex database (../shared/fixtures/plex) a test can
 * write to the way Plex's scanner would. Plex's own SQLite carries the ICU
 * collation its title index and FTS triggers on metadata_items need; stock
 * SQLite cannot insert a row while they exist, so the copy drops just those
 * (search upkeep; none of the tables scanarr reads change shape).
 */
export interface WritablePlexDb {
  /** The copy, for PLEX_DATABASE_PATH. */
  file: string;
  /** Adds an episode under an existing season as a Plex scan would (metadata item, media item, part); returns its ratingKey. */
  addEpisode(file: string, season: { sectionId: number; ratingKey: number }): string;
  /** The live item of `file` as the database holds it, if any. */
  itemOf(file: string): { ratingKey: string; parentRatingKey: string | null } | undefined;
  /** Removes a file's part, as Plex does once it emptied the trash. */
  removePart(file: string): void;
}

export function writablePlexDb(): WritablePlexDb {
  const file = copyFixtureDb();
  const db = new Database(file);
  try {
    const icu = db
      .prepare(
        "SELECT type, name FROM sqlite_master WHERE tbl_name = 'metadata_items' AND type IN ('trigger', 'index') AND sql LIKE '%icu%'",
      )
      .all() as Array<{ type: "trigger" | "index"; name: string }>;
    for (const { type, name } of icu) db.exec(`DROP ${type.toUpperCase()} "${name}"`);
  } finally {
    db.close();
  }
  const use = <T>(work: (db: Database.Database) => T): T => {
    const handle = new Database(file);
    try {
      return work(handle);
    } finally {
      handle.close();
    }
  };
  return {
    file,
    addEpisode: (path, season) =>
      use((handle) =>
        handle.transaction(() => {
          const now = Math.floor(Date.now() / 1000);
          const item = handle
            .prepare(
              `INSERT INTO metadata_items (library_section_id, parent_id, metadata_type, title, "index", added_at, created_at, updated_at)
               VALUES (?, ?, 4, ?, 99, ?, ?, ?)`,
            )
            .run(season.sectionId, season.ratingKey, path.slice(path.lastIndexOf("/") + 1), now, now, now).lastInsertRowid;
          const media = handle
            .prepare("INSERT INTO media_items (library_section_id, metadata_item_id, created_at, updated_at) VALUES (?, ?, ?, ?)")
            .run(season.sectionId, item, now, now).lastInsertRowid;
          handle
            .prepare("INSERT INTO media_parts (media_item_id, file, size, created_at, updated_at) VALUES (?, ?, 1024, ?, ?)")
            .run(media, path, now, now);
          return String(item);
        })(),
      ),
    itemOf: (path) =>
      use((handle) => {
        const row = handle
          .prepare(
            `SELECT md.id AS item, md.parent_id AS parent FROM media_parts mp JOIN media_items mi ON mi.id = mp.media_item_id
             JOIN metadata_items md ON md.id = mi.metadata_item_id WHERE mp.file = ? AND mp.deleted_at IS NULL`,
          )
          .get(path) as { item: number; parent: number | null } | undefined;
        return row ? { ratingKey: String(row.item), parentRatingKey: row.parent === null ? null : String(row.parent) } : undefined;
      }),
    removePart: (path) =>
      use((handle) => {
        const { changes } = handle.prepare("DELETE FROM media_parts WHERE file = ?").run(path);
        if (changes === 0) throw new Error(`the Plex database copy has no part ${path}`);
      }),
  };
}
