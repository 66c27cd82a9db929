import type { ItemRef } from "../../domain.js";
import { openLibraryDb } from "./open-library-db.js";

/** The Plex item that holds a file: its ratingKey (metadata item id) and parent (season, album). */
export interface PlexItemRef extends ItemRef {
  /** A folder-wide sidecar's further videos (`poster.jpg` in a folder of two editions). */
  more?: PlexItemRef[];
}

/** Read-only questions about items and the trash, asked of Plex's library database. */
export interface PlexItemsDb {
  /** The live (not trashed) items of `files` in section `sectionId`, by file; a file Plex lacks is absent. */
  findFiles(sectionId: string, files: readonly string[]): Map<string, PlexItemRef>;
  /** The live items whose files lie in [from, to) (a folder and below), by one index range over media_parts.file. */
  findInRange(sectionId: string, from: string, to: string): PlexItemRef[];
  /**
   * The section's trash: deleted metadata items plus deleted media parts,
   * the two counts plex_autoscan added up (for the whole database; here per section).
   */
  countDeleted(sectionId: string): number;
  close(): void;
}

// media_parts.file is indexed; deleted_at is set while Plex keeps a missing part in the trash.
const FIND_SQL = `
  SELECT mi.metadata_item_id AS item, md.parent_id AS parent
  FROM media_parts mp
  JOIN media_items mi ON mi.id = mp.media_item_id
  LEFT JOIN metadata_items md ON md.id = mi.metadata_item_id
  WHERE mp.file = ? AND mp.deleted_at IS NULL AND mi.library_section_id = ?
  ORDER BY mp.id LIMIT 1`;

const RANGE_SQL = `
  SELECT mp.file AS file, mi.metadata_item_id AS item, md.parent_id AS parent
  FROM media_parts mp
  JOIN media_items mi ON mi.id = mp.media_item_id
  LEFT JOIN metadata_items md ON md.id = mi.metadata_item_id
  WHERE mp.file >= ? AND mp.file < ? AND mp.deleted_at IS NULL AND mi.library_section_id = ?
  ORDER BY mp.id`;

const DELETED_SQL = `
  SELECT (SELECT count(*) FROM metadata_items WHERE deleted_at IS NOT NULL AND library_section_id = ?)
       + (SELECT count(*) FROM media_parts mp JOIN media_items mi ON mi.id = mp.media_item_id
          WHERE mp.deleted_at IS NOT NULL AND mi.library_section_id = ?) AS deleted`;

interface FoundRow {
  item: number | null;
  parent: number | null;
}

/**
 * Opens the Plex library database read-only (open-library-db.ts) for item
 * lookups: media_parts → media_items → metadata_items.
 */
export function openPlexItemsDb(file: string): PlexItemsDb {
  const { db, statements } = openLibraryDb(file, { find: FIND_SQL, range: RANGE_SQL, deleted: DELETED_SQL });
  const { find, range, deleted } = statements;
  return {
    findFiles(sectionId, files) {
      const found = new Map<string, PlexItemRef>();
      const section = Number(sectionId);
      for (const path of new Set(files)) {
        const row = find.get(path, section) as FoundRow | undefined;
        if (!row || row.item === null) continue;
        const ref: PlexItemRef = { file: path, ratingKey: String(row.item) };
        if (row.parent !== null) ref.parentRatingKey = String(row.parent);
        found.set(path, ref);
      }
      return found;
    },
    findInRange(sectionId, from, to) {
      const rows = range.all(from, to, Number(sectionId)) as Array<FoundRow & { file: string }>;
      return rows.flatMap((row) => {
        if (row.item === null) return [];
        const ref: PlexItemRef = { file: row.file, ratingKey: String(row.item) };
        if (row.parent !== null) ref.parentRatingKey = String(row.parent);
        return [ref];
      });
    },
    countDeleted(sectionId) {
      const row = deleted.get(Number(sectionId), Number(sectionId)) as { deleted: number };
      return row.deleted;
    },
    close: () => db.close(),
  };
}
