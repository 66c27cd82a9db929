import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { sharedFixture } from "../../helpers/shared-fixtures.js";

const DB_FILE = "plex/com.plexapp.plugins.library.db";
/** The real Plex database shipped in ../shared/fixtures; its tests run when `hasFixtureDb` (always in CI). */
const fixture = sharedFixture(DB_FILE, "the tests on the real Plex database");
export const hasFixtureDb = fixture.run;

/** Copies the fixture (with its -wal/-shm, if any) into a fresh temp dir, since SQLite in WAL mode wants its -shm next to the file. */
export function copyFixtureDb(): string {
  const source = fixture.file();
  const dir = mkdtempSync(path.join(tmpdir(), "scanarr-plexdb-"));
  const file = path.join(dir, "com.plexapp.plugins.library.db");
  for (const suffix of ["", "-wal", "-shm"]) {
    if (existsSync(source + suffix)) copyFileSync(source + suffix, file + suffix);
  }
  return file;
}

export interface FakeSection {
  id: number;
  name: string;
  type: number;
  locations: string[];
}

export interface FakePart {
  file: string;
  deleted?: boolean;
}

/** Builds a database with the column names Plex uses for the tables scanarr reads. */
export function buildPlexDb(sections: FakeSection[], parts: FakePart[] = []): string {
  const dir = mkdtempSync(path.join(tmpdir(), "scanarr-plexdb-"));
  const file = path.join(dir, "com.plexapp.plugins.library.db");
  const db = new Database(file);
  db.exec(`
    CREATE TABLE library_sections (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, library_id integer,
      name varchar(255), section_type integer, uuid varchar(255));
    CREATE TABLE section_locations (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, library_section_id integer,
      root_path varchar(255), available boolean DEFAULT 't');
    CREATE TABLE media_parts (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, media_item_id integer,
      file varchar(255), size integer(8), deleted_at dt_integer(8));`);
  const section = db.prepare("INSERT INTO library_sections (id, name, section_type) VALUES (?, ?, ?)");
  const location = db.prepare("INSERT INTO section_locations (library_section_id, root_path) VALUES (?, ?)");
  const part = db.prepare("INSERT INTO media_parts (file, size, deleted_at) VALUES (?, 1, ?)");
  for (const s of sections) {
    section.run(s.id, s.name, s.type);
    for (const root of s.locations) location.run(s.id, root);
  }
  for (const p of parts) part.run(p.file, p.deleted ? 1_700_000_000 : null);
  db.close();
  return file;
}

export interface FakeItemRow {
  file: string;
  section: number;
  /** metadata_items.id of the file's item; `parent` is its season or album. */
  ratingKey: number;
  parent?: number;
  deleted?: boolean;
}

/**
 * A database with Plex's tables for items as well: media_parts →
 * media_items → metadata_items, with the column names and the deleted_at
 * markers the lookups read.
 */
export function buildPlexItemsDb(sections: FakeSection[], items: FakeItemRow[]): string {
  const file = buildPlexDb(sections);
  const db = new Database(file);
  db.exec(`
    CREATE TABLE media_items (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, library_section_id integer,
      metadata_item_id integer, deleted_at dt_integer(8));
    CREATE TABLE metadata_items (id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, library_section_id integer,
      parent_id integer, metadata_type integer, deleted_at dt_integer(8));`);
  const metadata = db.prepare(
    "INSERT OR IGNORE INTO metadata_items (id, library_section_id, parent_id, metadata_type) VALUES (?, ?, ?, ?)",
  );
  const media = db.prepare("INSERT INTO media_items (library_section_id, metadata_item_id) VALUES (?, ?)");
  const part = db.prepare("INSERT INTO media_parts (media_item_id, file, size, deleted_at) VALUES (?, ?, 1, ?)");
  db.transaction(() => {
    for (const item of items) {
      if (item.parent !== undefined) metadata.run(item.parent, item.section, null, 3);
      metadata.run(item.ratingKey, item.section, item.parent ?? null, 4);
      const row = media.run(item.section, item.ratingKey);
      part.run(row.lastInsertRowid, item.file, item.deleted ? 1_700_000_000 : null);
    }
  })();
  db.close();
  return file;
}
