import { childList, isFields, readId, readMediaContainer, type Fields } from "./container.js";

/** A sub-folder in Plex's folder view; `key` is the path that lists it. */
export interface FolderEntry {
  key: string;
  title: string;
}

/** A file of an item, as Plex lists it under `Media[].Part[]`. */
export interface ItemFile {
  file: string;
  /** Plex keeps a missing file "in the trash" (`deletedAt`) until the trash is emptied. */
  trashed: boolean;
}

/** A library item (movie, episode, track, photo) with its files. */
export interface ItemEntry {
  ratingKey: string;
  /** The season of an episode, the album of a track; absent for a movie. */
  parentRatingKey?: string;
  type: string;
  files: ItemFile[];
}

export interface FolderListing {
  folders: FolderEntry[];
  items: ItemEntry[];
}

/**
 * `GET /library/sections/{id}/folder[?parent=…]`: the sub-folders and the
 * items of one folder. JSON puts both under `Metadata`; XML uses
 * `Directory` for folders and `Video`/`Track`/`Photo` for items. Every list
 * of the container is read, so either shape (or a mix) works.
 */
export function parseFolderListing(text: string, contentType: string): FolderListing {
  const container = readMediaContainer(text, contentType);
  const listing: FolderListing = { folders: [], items: [] };
  for (const [name, value] of Object.entries(container)) {
    if (!Array.isArray(value)) continue;
    for (const entry of value) {
      if (!isFields(entry)) continue;
      const item = toItem(entry);
      if (item) {
        listing.items.push(item);
        continue;
      }
      const folder = toFolder(entry, name);
      if (folder) listing.folders.push(folder);
    }
  }
  return listing;
}

function toItem(fields: Fields): ItemEntry | undefined {
  const ratingKey = readId(fields.ratingKey);
  const media = childList(fields, "Media");
  if (ratingKey === undefined || media.length === 0) return undefined;
  const itemTrashed = isSet(fields.deletedAt);
  const files = media.flatMap((m) =>
    childList(m, "Part").flatMap((part) =>
      typeof part.file === "string" ? [{ file: part.file, trashed: itemTrashed || isSet(part.deletedAt) }] : [],
    ),
  );
  const parentRatingKey = readId(fields.parentRatingKey);
  const type = typeof fields.type === "string" ? fields.type : "unknown";
  return parentRatingKey === undefined ? { ratingKey, type, files } : { ratingKey, parentRatingKey, type, files };
}

function toFolder(fields: Fields, listName: string): FolderEntry | undefined {
  const key = fields.key;
  const title = fields.title;
  if (typeof key !== "string" || typeof title !== "string") return undefined;
  // Folder keys point back into the folder view; anything else (a show's /children) is not a folder.
  if (!/\/folder(\?|$)/.test(key) && listName !== "Directory") return undefined;
  return { key, title };
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "" && value !== 0 && value !== "0";
}
