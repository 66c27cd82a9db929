import type { Library } from "../../domain.js";
import type { Clock } from "../../lib/clock.js";
import { BoundedMap } from "../../lib/bounded-map.js";
import { KeyedSingleFlight } from "../../lib/single-flight.js";
import { formatPath, isPrefixOf, parentOf, tryParsePath, type ParsedPath } from "../../paths/index.js";
import { ITEM_PAGE_SIZE, type ItemPage } from "./items.js";

/** What the folder lookup asks of a Jellyfin or Emby client: one of the two ways to find a folder's item. */
export interface FolderItemApi {
  /** The item at exactly `path`, where `GET /Items` filters by path (Emby's `Path`, folders included). */
  findItemByPath?(parentId: string, path: string): Promise<string | undefined>;
  /** A page of the library's folder items with their paths (Jellyfin, whose `GET /Items` has no path filter). */
  listFolderItems?(parentId: string, start: number, limit: number): Promise<ItemPage>;
}

/** The item a scan refreshes: the nearest folder the server knows at or above the scan's folder. */
export interface FolderItem {
  id: string;
  /** The folder that item stands for (the library's own item stands for the location holding the folder). */
  path: string;
  /** True when it is the library's own item (a new top folder: the server validates the whole library). */
  library: boolean;
  /** True when it is the scan's folder itself, not one above it. */
  itself: boolean;
  /** True when it is a folder directly in the library's location (a series, a movie's folder, an artist). */
  top: boolean;
}

/**
 * A library's folder listing is read again, when a scan's folder is not in
 * it, at most once per this time: a folder unknown now (a new series or
 * season) is known once a scan has made its item, so the next scan of it
 * finds it after one re-read, and a burst of new folders costs one read.
 */
export const FOLDER_REREAD_MS = 60_000;
/** Folders kept per library: past this a library's other folders count as unknown (their parents are refreshed). */
export const MAX_FOLDERS_PER_LIBRARY = 200_000;
/** Libraries whose folders are kept; the library read longest ago goes first. */
const MAX_LIBRARIES = 64;

/**
 * Finds, for a scan's folder, the nearest item the server already knows at
 * or above it: the folder itself, then each parent, up to the library's own
 * item (`Library.id`, the collection folder) at the library's location.
 * Emby: one `GET /Items?Path=…` per folder tried. Jellyfin: the library's
 * folder items read into a bounded cache (re-read rule: FOLDER_REREAD_MS).
 */
export function createFolderLookup(api: FolderItemApi, clock: Clock) {
  const cache = new BoundedMap<string, { at: number; ids: Map<string, string> }>(MAX_LIBRARIES);
  const reads = new KeyedSingleFlight<string, Map<string, string>>();

  async function readFolders(libraryId: string, list: NonNullable<FolderItemApi["listFolderItems"]>): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    for (let start = 0; ids.size < MAX_FOLDERS_PER_LIBRARY; start += ITEM_PAGE_SIZE) {
      const page = await list(libraryId, start, ITEM_PAGE_SIZE);
      for (const item of page.items) {
        const path = tryParsePath(item.path);
        if (path) ids.set(keyOf(path), item.id);
      }
      if (page.count < ITEM_PAGE_SIZE) break;
    }
    cache.set(libraryId, { at: clock.now(), ids });
    return ids;
  }

  /** The library's folders, read again when `folder` is not among them and the last read is old enough. */
  async function foldersOf(library: Library, folder: string): Promise<ReadonlyMap<string, string>> {
    const list = api.listFolderItems?.bind(api);
    if (!list) return new Map();
    const held = cache.get(library.id);
    if (held && (held.ids.has(folder) || clock.now() - held.at < FOLDER_REREAD_MS)) return held.ids;
    return reads.run(library.id, () => readFolders(library.id, list));
  }

  return {
    async nearest(folder: string, library: Library): Promise<FolderItem> {
      const start = tryParsePath(folder);
      const location = start && library.locations.map(tryParsePath).find((l) => l !== undefined && isPrefixOf(l, start));
      if (!start || !location) return { id: library.id, path: start ? keyOf(start) : folder, library: true, itself: false, top: false };
      const depth = location.parts.length;
      const known = api.findItemByPath ? undefined : await foldersOf(library, keyOf(start));
      for (let path = start; path.parts.length > depth; path = parentOf(path)) {
        const key = keyOf(path);
        const id = known ? known.get(key) : await api.findItemByPath?.(library.id, key);
        if (id !== undefined) return { id, path: key, library: false, itself: path === start, top: path.parts.length === depth + 1 };
      }
      return { id: library.id, path: keyOf(location), library: true, itself: start.parts.length === depth, top: false };
    },
    /** Forgets a library's folders (an item the server no longer knows): the next scan reads them again. */
    forget(libraryId: string): void {
      cache.delete(libraryId);
    },
  };
}

export type FolderLookup = ReturnType<typeof createFolderLookup>;

/** A folder's one spelling, as the cache keys it and the lookup sends it: no trailing separator (paths/parse.ts). */
function keyOf(path: ParsedPath): string {
  return formatPath({ ...path, trailingSlash: false });
}
