import type { ItemRefreshReport, Library } from "../domain.js";
import { sidecarOf, videosOf } from "../paths/sidecars.js";
import { isFields } from "./http-client.js";

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
}

/** Items per page: the size autopulse uses, about 100 KB of JSON with only `Path` asked for. */
export const ITEM_PAGE_SIZE = 1_000;

/**
 * The query of one page of a library's items with their paths (apis.md,
 * round3.md §4): recursive under the library's own item, folders left out,
 * no images, no total count (it costs the server a second query).
 */
export function itemsQuery(parentId: string, start: number, limit: number, types?: readonly string[]): string {
  const query = new URLSearchParams({
    ParentId: parentId,
    Recursive: "true",
    // The files (for item refresh), or the items of these types (set-up reads series and movie folders).
    ...(types ? { IncludeItemTypes: types.join(",") } : { IsFolder: "false" }),
    Fields: "Path",
    EnableImages: "false",
    EnableTotalRecordCount: "false",
    StartIndex: String(start),
    Limit: String(limit),
  });
  return `/Items?${query.toString()}`;
}

/** `POST /Items/{id}/Refresh`: look at the item's files again (new subtitles, a remuxed file), keeping its metadata. */
export function refreshQuery(id: string): string {
  const query = new URLSearchParams({
    Recursive: "true",
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
 * Finds the items of `files` in `library` by paging through its items (the
 * API has no path filter) and stops at the page where the last one was
 * found, then refreshes each item once. A sidecar's item is its video's
 * (paths/sidecars.ts), taken from the videos of its folder seen so far.
 */
export async function refreshMediaBrowserItems(api: ItemApi, files: readonly string[], library: Library): Promise<ItemRefreshReport> {
  const ids = new Map<string, string>();
  const found = new Map<string, string[]>();
  const left = new Set(files);
  for (let start = 0; left.size > 0; start += ITEM_PAGE_SIZE) {
    const page = await api.listItems(library.id, start, ITEM_PAGE_SIZE);
    for (const item of page.items) ids.set(item.path, item.id);
    for (const file of left) {
      const sidecar = sidecarOf(file);
      const paths = sidecar ? videosOf(sidecar, ids.keys()) : ids.has(file) ? [file] : [];
      if (paths.length === 0) continue;
      found.set(
        file,
        paths.flatMap((p) => ids.get(p) ?? []),
      );
      left.delete(file);
    }
    if (page.count < ITEM_PAGE_SIZE) break;
  }
  const unique = [...new Set([...found.values()].flat())];
  for (const id of unique) await api.refreshItem(id);
  return { refreshed: unique.length, unknown: files.filter((file) => !found.has(file)) };
}
