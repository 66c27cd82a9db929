import type { Library } from "../domain.js";
import { formatPath, isPrefixOf, tryParsePath, type ParsedPath } from "../paths/parse.js";
import type { PlexApiClient } from "../targets/plex/api.js";
import type { MediaBrowserClient } from "../targets/media-browser/client.js";

/** At most this many items per library are read: enough to match folder names, bounded on a large library. */
export const ITEM_SAMPLE = 1_000;

/**
 * The item folders of a Plex library from its folder view: the folders
 * directly under each location are its series, movies, artists or authors,
 * one listing per location.
 */
export async function plexItemFolders(api: Pick<PlexApiClient, "listFolder">, library: Library): Promise<string[]> {
  const root = await api.listFolder(library.id);
  // One location: the root lists its content; several: the root lists each location by its full path.
  const tops =
    library.locations.length === 1
      ? [{ location: library.locations[0] as string, folders: root.folders }]
      : await Promise.all(
          root.folders.map(async (entry) => ({ location: entry.title, folders: (await api.listFolder(library.id, entry.key)).folders })),
        );
  return tops.flatMap(({ location, folders }) => folders.map((f) => joinChild(location, f.title))).slice(0, ITEM_SAMPLE);
}

/** The item folders of a Jellyfin or Emby library: each item's path, cut to the folder right under its location. */
export async function mediaBrowserItemFolders(api: Pick<MediaBrowserClient, "listItemPaths">, library: Library): Promise<string[]> {
  const paths = await api.listItemPaths(library, ITEM_SAMPLE);
  return [...new Set(paths.flatMap((p) => itemFolderOf(p, library.locations) ?? []))];
}

/** `location/<first component below it>` for a path inside a location; undefined outside every location. */
export function itemFolderOf(path: string, locations: readonly string[]): string | undefined {
  const parsed = tryParsePath(path);
  for (const location of locations) {
    const root = tryParsePath(location);
    if (!parsed || !root) continue;
    if (!isPrefixOf(root, parsed) || parsed.parts.length <= root.parts.length) continue;
    const folder: ParsedPath = { ...parsed, parts: parsed.parts.slice(0, root.parts.length + 1), trailingSlash: false };
    return formatPath(folder);
  }
  return undefined;
}

function joinChild(location: string, name: string): string {
  const sep = location.includes("\\") && !location.includes("/") ? "\\" : "/";
  return `${location.replace(/[\\/]+$/, "")}${sep}${name}`;
}
