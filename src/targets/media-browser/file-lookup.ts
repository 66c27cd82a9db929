import type { FindFilesRequest, FoundFiles, ItemRef } from "../../domain.js";
import type { Clock } from "../../lib/clock.js";
import { findEachByPath, ITEM_PAGE_SIZE, resolveFiles, type ItemPage } from "./items.js";

/** What the lookup asks of a Jellyfin or Emby client. */
export interface FileLookupApi {
  /** A page of a library's files, the most recently added first. */
  listRecentItems(parentId: string, start: number, limit: number): Promise<ItemPage>;
  /** The item at exactly `path`, where `GET /Items` filters by path (Emby). */
  findItemByPath?(parentId: string, path: string): Promise<string | undefined>;
}

/**
 * How long a library's whole listing answers for files the newest page did
 * not show. A confirmation polls every few seconds while a file is missing;
 * the newest page, read on every poll, shows a file the server just added,
 * so only a file it held before the scan (or a deleted one it still holds)
 * needs the whole library, read once per this time instead of every poll.
 */
export const LISTING_TTL_MS = 60_000;

/**
 * Which named files a Jellyfin or Emby server lists, with their items, for
 * the after-scan confirmation. Emby filters `GET /Items` by `Path`: one call
 * per file. A sidecar's item is its video's, which only a listing tells, and
 * Jellyfin's `GET /Items` has no path filter: those are found in the
 * library's files newest first (a scan's new files are on the first page),
 * paged until every one is found, or through the library's last whole
 * listing when it is fresh.
 */
export function createFileLookup(api: FileLookupApi, clock: Clock): (requests: readonly FindFilesRequest[]) => Promise<FoundFiles> {
  const listings = new Map<string, { at: number; ids: ReadonlyMap<string, string> }>();

  async function walk(libraryId: string, left: Set<string>, found: Map<string, ItemRef[]>): Promise<void> {
    const ids = new Map<string, string>();
    for (let start = 0; left.size > 0; start += ITEM_PAGE_SIZE) {
      const page = await api.listRecentItems(libraryId, start, ITEM_PAGE_SIZE);
      for (const item of page.items) ids.set(item.path, item.id);
      resolveFiles(left, ids, found);
      if (page.count < ITEM_PAGE_SIZE) {
        listings.set(libraryId, { at: clock.now(), ids });
        return;
      }
      const listing = listings.get(libraryId);
      if (start === 0 && listing && left.size > 0) {
        for (const [path, id] of listing.ids) if (!ids.has(path)) ids.set(path, id);
        resolveFiles(left, ids, found);
        return;
      }
    }
  }

  return async (requests) => {
    const now = clock.now();
    for (const [id, listing] of listings) if (now - listing.at >= LISTING_TTL_MS) listings.delete(id);
    const byLibrary = new Map<string, Set<string>>();
    for (const { library, files } of requests) {
      const wanted = byLibrary.get(library.id) ?? new Set<string>();
      for (const file of files) wanted.add(file);
      byLibrary.set(library.id, wanted);
    }
    const foundBy = new Map<string, Map<string, ItemRef[]>>();
    for (const [libraryId, wanted] of byLibrary) {
      const found = new Map<string, ItemRef[]>();
      const left = new Set(wanted);
      if (api.findItemByPath) await findEachByPath(api.findItemByPath.bind(api), libraryId, left, found);
      await walk(libraryId, left, found);
      foundBy.set(libraryId, found);
    }
    const found = requests.map(({ library, files }) => {
      const inLibrary = foundBy.get(library.id) ?? new Map<string, ItemRef[]>();
      return new Map(files.flatMap((file) => (inLibrary.has(file) ? [[file, inLibrary.get(file) ?? []] as const] : [])));
    });
    return { found, source: "api" };
  };
}
