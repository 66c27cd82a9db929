import type { RequestedPath } from "./types.js";

/**
 * The SERVER_IGNORE_LIST entry that `path` contains, or undefined.
 *
 * A case-insensitive substring test, as plex_autoscan did, so lists users
 * already have keep their meaning: "/.grab/" matches a folder anywhere in the
 * path and ".DS_Store" matches whatever case the OS wrote it in. Empty entries
 * are skipped because a substring test would let "" ignore every request.
 */
export function matchIgnoreList(path: string, list: readonly string[]): string | undefined {
  const haystack = path.toLowerCase();
  return list.find((entry) => entry !== "" && haystack.includes(entry.toLowerCase()));
}

export interface IgnoredPath extends RequestedPath {
  /** The SERVER_IGNORE_LIST entry that matched. */
  entry: string;
}

/** Splits requested paths into those to scan and those the ignore list drops. */
export function partitionIgnored(
  paths: readonly RequestedPath[],
  list: readonly string[],
): { kept: RequestedPath[]; ignored: IgnoredPath[] } {
  const kept: RequestedPath[] = [];
  const ignored: IgnoredPath[] = [];
  for (const requested of paths) {
    const entry = matchIgnoreList(requested.path, list);
    if (entry === undefined) kept.push(requested);
    else ignored.push({ ...requested, entry });
  }
  return { kept, ignored };
}
