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
