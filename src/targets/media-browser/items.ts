import type { ItemRef, ItemRefreshReport, Library } from "../../domain.js";
import { sidecarOf, videosOf } from "../../paths/sidecars.js";
import { isFields } from "../../http/client.js";

/** One page of `GET /Items?…&Fields=Path`: the items with a path, and whether more pages follow. */
export interface ItemPage {
  items: Array<{ id: string; path: string }>;
  /** Items on the page as the server counted them (a short page is the last). */
  count: number;
}

/** The item calls Jellyfin and Emby share (MediaBrowserClient has them). */
export interface ItemApi {
  listItems(parentId: string, start: number, limit: number, types?: readonly string[]): Promise<ItemPage>;
  refreshItem(id: string): Promise<void>;
  /**
   * The id of the item at exactly `path` in one call, where the server's
   * `GET /Items` has a path filter (Emby's `Path`; Jellyfin's has none).
   */
  findItemByPath?(parentId: string, path: string): Promise<string | undefined>;
}

/** Items per page: the size autopulse uses, about 100 KB of JSON with only `Path` asked for. */
export const ITEM_PAGE_SIZE = 1_000;

/**
 * The query of one page of a library's items with their paths (apis.md,
 * round3.md §4): recursive under the library's own item, the files only
 * (`Filters=IsNotFolder`, in both servers' descriptions), the folders only
 * (`Filters=IsFolder`) or the items of some types, no images, and `extra`
 * (Jellyfin: no total count, which costs it a second query; Emby's
 * description has no such parameter).
 */
export function itemsQuery(
  parentId: string,
  start: number,
  limit: number,
  what?: readonly string[] | "folders",
  extra: Readonly<Record<string, string>> = {},
): string {
  const query = new URLSearchParams({
    ParentId: parentId,
    Recursive: "true",
    // The files (item refresh, confirmation), the folders (a scan's folder refresh) or some types (set-up's series and movie folders).
    ...(what === "folders" ? { Filters: "IsFolder" } : what ? { IncludeItemTypes: what.join(",") } : { Filters: "IsNotFolder" }),
    Fields: "Path",
    EnableImages: "false",
    ...extra,
    StartIndex: String(start),
    Limit: String(limit),
  });
  return `/Items?${query.toString()}`;
}

/** Emby's `GET /Items?Path=…`: the item at exactly that path, in the library. */
export function itemByPathQuery(parentId: string, path: string): string {
  const query = new URLSearchParams({
    ParentId: parentId,
    Recursive: "true",
    Path: path,
    Fields: "Path",
    EnableImages: "false",
    Limit: "2",
  });
  return `/Items?${query.toString()}`;
}

/**
 * `POST /Items/{id}/Refresh`: look at the item's files again (new subtitles,
 * a remuxed file), keeping its metadata. `extra`: Emby's `Recursive`, which
 * Jellyfin's description does not have.
 */
export function refreshQuery(id: string, extra: Readonly<Record<string, string>> = {}): string {
  const query = new URLSearchParams({
    ...extra,
    MetadataRefreshMode: "Default",
    ImageRefreshMode: "Default",
    ReplaceAllMetadata: "false",
    ReplaceAllImages: "false",
  });
  return `/Items/${encodeURIComponent(id)}/Refresh?${query.toString()}`;
}

/** `{Items: [{Id, Path, …}]}` → the items that have a path. */
export function readItemPage(data: unknown): ItemPage {
  if (!isFields(data) || !Array.isArray(data.Items)) throw new Error("expected {Items: [...]}");
  const items = data.Items.flatMap((entry) =>
    isFields(entry) && typeof entry.Id === "string" && typeof entry.Path === "string" ? [{ id: entry.Id, path: entry.Path }] : [],
  );
  return { items, count: data.Items.length };
}

/**
 * Finds the items of `files` in `library`, then refreshes each item once.
 * Where the server filters by path (Emby), a file's item is one call; a
 * sidecar's item is its video's (paths/sidecars.ts), whose name only the
 * folder's items tell, so sidecars (and every file on Jellyfin, whose
 * `GET /Items` has no path filter) are found by paging through the
 * library's items, stopping at the page where the last one was found.
 */
export async function refreshMediaBrowserItems(api: ItemApi, files: readonly string[], library: Library): Promise<ItemRefreshReport> {
  const found = new Map<string, ItemRef[]>();
  const left = new Set(files);
  if (api.findItemByPath) await findEachByPath(api.findItemByPath.bind(api), library.id, left, found);
  await walkForItems(api, left, library, found);
  const unique = [...new Set([...found.values()].flat().map((item) => item.ratingKey))];
  for (const id of unique) await api.refreshItem(id);
  return { refreshed: unique.length, unknown: files.filter((file) => !found.has(file)) };
}

/** The bounded walk: pages of the library's items until every file in `left` is found or the items end. */
async function walkForItems(api: ItemApi, left: Set<string>, library: Library, found: Map<string, ItemRef[]>): Promise<void> {
  const ids = new Map<string, string>();
  for (let start = 0; left.size > 0; start += ITEM_PAGE_SIZE) {
    const page = await api.listItems(library.id, start, ITEM_PAGE_SIZE);
    for (const item of page.items) ids.set(item.path, item.id);
    resolveFiles(left, ids, found);
    if (page.count < ITEM_PAGE_SIZE) break;
  }
}

/**
 * Moves each file of `left` whose item `ids` (path → item id) holds into
 * `found`: a video (or any file) by its own path, a sidecar by its videos'
 * (paths/sidecars.ts), each item marked with the sidecar it was found for.
 */
export function resolveFiles(left: Set<string>, ids: ReadonlyMap<string, string>, found: Map<string, ItemRef[]>): void {
  for (const file of left) {
    const sidecar = sidecarOf(file);
    const paths = sidecar ? videosOf(sidecar, ids.keys()) : ids.has(file) ? [file] : [];
    if (paths.length === 0) continue;
    found.set(
      file,
      paths.flatMap((path) => {
        const id = ids.get(path);
        return id === undefined ? [] : [{ file: path, ratingKey: id, ...(sidecar ? { named: file } : {}) }];
      }),
    );
    left.delete(file);
  }
}

/** One `GET /Items?Path=…` per file of `left` that is not a sidecar (Emby): each is settled, listed or not, and leaves `left`. */
export async function findEachByPath(
  find: (parentId: string, path: string) => Promise<string | undefined>,
  libraryId: string,
  left: Set<string>,
  found: Map<string, ItemRef[]>,
): Promise<void> {
  for (const file of [...left]) {
    if (sidecarOf(file)) continue;
    left.delete(file);
    const id = await find(libraryId, file);
    if (id !== undefined) found.set(file, [{ file, ratingKey: id }]);
  }
}
