import Database from "better-sqlite3";
import { UserError, type Library } from "../../domain.js";
import { messageOf } from "../../lib/errors.js";

/** Read-only view of Plex's `com.plexapp.plugins.library.db`. */
export interface PlexLibraryDb {
  /** Sections with their folders, ordered by section id. */
  listLibraries(): Library[];
  /** True when a live (not trashed) media part has exactly this file path. */
  hasFile(serverPath: string): boolean;
  close(): void;
}

// Plex stores the library type as a number; 8 is music, which the HTTP API calls "artist".
const SECTION_TYPES: Record<number, string> = { 1: "movie", 2: "show", 8: "artist", 13: "photo" };

interface SectionRow {
  id: number;
  name: string | null;
  section_type: number | null;
  root_path: string | null;
}

/**
 * Opens the Plex library database read-only. Only plain tables are queried:
 * Plex's FTS/ICU tables and triggers need Plex's own SQLite build, and only
 * Plex may write to the file.
 */
export function openPlexLibraryDb(file: string): PlexLibraryDb {
  const db = openReadOnly(file);
  const sections = prepareOrExplain(db, file, SECTIONS_SQL);
  const part = prepareOrExplain(db, file, HAS_FILE_SQL);
  return {
    listLibraries: () => groupSections(sections.all() as SectionRow[]),
    hasFile: (serverPath) => part.get(serverPath) !== undefined,
    close: () => db.close(),
  };
}

// LEFT JOIN keeps a section whose folders were all removed, so --list still shows it.
const SECTIONS_SQL = `
  SELECT ls.id AS id, ls.name AS name, ls.section_type AS section_type, sl.root_path AS root_path
  FROM library_sections ls
  LEFT JOIN section_locations sl ON sl.library_section_id = ls.id
  ORDER BY ls.id, sl.id`;

// deleted_at is set while Plex keeps a part in the trash (file gone, trash not emptied).
const HAS_FILE_SQL = "SELECT 1 FROM media_parts WHERE file = ? AND deleted_at IS NULL LIMIT 1";

/** Opens `file` read-only; a missing or unreadable file is a UserError naming PLEX_DATABASE_PATH. */
export function openReadOnly(file: string): Database.Database {
  try {
    return new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new UserError(`cannot open the Plex database ${file} (PLEX_DATABASE_PATH): ${describe(error)}`);
  }
}

/** Prepares `sql`, closing `db` and naming the file when it is not a Plex database. */
export function prepareOrExplain(db: Database.Database, file: string, sql: string): Database.Statement {
  try {
    return db.prepare(sql);
  } catch (error) {
    db.close();
    throw new UserError(`${file} does not look like a Plex library database (PLEX_DATABASE_PATH): ${describe(error)}`);
  }
}

function groupSections(rows: SectionRow[]): Library[] {
  const byId = new Map<number, Library>();
  for (const row of rows) {
    let library = byId.get(row.id);
    if (!library) {
      library = { id: String(row.id), title: row.name ?? "", type: sectionType(row.section_type), locations: [] };
      byId.set(row.id, library);
    }
    if (row.root_path) library.locations.push(row.root_path);
  }
  return [...byId.values()];
}

function sectionType(value: number | null): string {
  if (value === null) return "unknown";
  return SECTION_TYPES[value] ?? String(value);
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === "SQLITE_CANTOPEN") return "the file is missing or not readable by this user";
  return messageOf(error);
}
