import type { Library } from "../../domain.js";
import type { Clock } from "../../lib/clock.js";
import { BoundedMap } from "../../lib/bounded-map.js";
import { KeyedSingleFlight } from "../../lib/single-flight.js";
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
      for (const item of page.items) ids.set(trimmed(item.path), item.id);
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
      const start = trimmed(folder);
      const location = library.locations.map(trimmed).find((l) => start === l || isUnder(start, l));
      const libraryItem = { id: library.id, path: location ?? start, library: true, itself: start === location, top: false };
      if (location === undefined) return libraryItem;
      const known = api.findItemByPath ? undefined : await foldersOf(library, start);
      for (let path = start; path !== location && isUnder(path, location); path = parentOf(path)) {
        const id = known ? known.get(path) : await api.findItemByPath?.(library.id, path);
        if (id !== undefined) return { id, path, library: false, itself: path === start, top: parentOf(path) === location };
      }
      return libraryItem;
    },
    /** Forgets a library's folders (an item the server no longer knows): the next scan reads them again. */
    forget(libraryId: string): void {
      cache.delete(libraryId);
    },
  };
}

export type FolderLookup = ReturnType<typeof createFolderLookup>;

/** A path without its trailing separators (a root stays itself). */
function trimmed(path: string): string {
  const cut = path.replace(/[/\\]+$/, "");
  return cut === "" ? path.slice(0, 1) : cut;
}

/** Whether `path` is strictly under `folder`, by whole components (`/TV/Show 2` is not under `/TV/Show`). */
function isUnder(path: string, folder: string): boolean {
  if (path.length <= folder.length || !path.startsWith(folder)) return false;
  return /[/\\]$/.test(folder) || /[/\\]/.test(path.charAt(folder.length));
}

function parentOf(path: string): string {
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  return cut <= 0 ? path.slice(0, 1) : path.slice(0, cut);
}
