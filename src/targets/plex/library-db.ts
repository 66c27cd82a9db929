import type { Library } from "../../domain.js";
import { openLibraryDb } from "./open-library-db.js";

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

/** Opens the Plex library database read-only (open-library-db.ts) for its sections and files. */
export function openPlexLibraryDb(file: string): PlexLibraryDb {
  const { db, statements } = openLibraryDb(file, { sections: SECTIONS_SQL, part: HAS_FILE_SQL });
  const { sections, part } = statements;
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
