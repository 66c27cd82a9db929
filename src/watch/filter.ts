import path from "node:path";
import { extensionOf, KNOWN_FILE_EXTENSIONS } from "../paths/extensions.js";
import { matchIgnoreList } from "../paths/ignore.js";

/** Files still being written by a downloader or a copy: never scanned, whatever they become later. */
const PARTIAL_EXTENSIONS: ReadonlySet<string> = new Set(["part", "partial", "!qb", "tmp", "crdownload", "download", "bak"]);

export interface PathFilter {
  /** A folder the watcher does not enter at all. */
  skipsDir(dir: string): boolean;
  /** A file whose appearance, change or removal is worth a scan of its folder. */
  isMedia(file: string): boolean;
}

/**
 * What a watcher looks at: media, subtitle, artwork and metadata files (the
 * extensions scanarr knows), minus partial downloads, SERVER_IGNORE_LIST
 * entries and the entry's IGNORE regular expressions.
 */
export function createPathFilter(ignore: readonly RegExp[], ignoreList: readonly string[]): PathFilter {
  const ignored = (p: string) => ignore.some((re) => re.test(p)) || matchIgnoreList(p, ignoreList) !== undefined;
  return {
    // The trailing separator lets a "/.grab/" ignore-list entry match the folder itself.
    skipsDir: (dir) => ignored(`${dir}${path.sep}`),
    isMedia(file) {
      const extension = extensionOf(path.basename(file));
      return KNOWN_FILE_EXTENSIONS.has(extension) && !PARTIAL_EXTENSIONS.has(extension) && !ignored(file);
    },
  };
}
