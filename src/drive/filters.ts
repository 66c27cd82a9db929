import type { CloudAllowed } from "../config/types.js";

/**
 * CLOUD.ALLOWED as one predicate. Returns why a file is rejected, or
 * undefined when it passes.
 *
 * An empty FILE_PATHS means "no path restriction": plex_autoscan rejected
 * everything in that case, silently, which only ever looked like a broken
 * monitor. Paths outside SERVER_PATH_MAPPINGS are still skipped later,
 * because the mapper cannot turn them into media-server paths. A file
 * without a meaningful MIME type (`undefined`: a decoded crypt file) skips
 * the MIME filter.
 */
export type ChangeFilter = (drivePath: string, mimeType: string | undefined) => string | undefined;

export function createChangeFilter(allowed: CloudAllowed): ChangeFilter {
  const prefixes = allowed.FILE_PATHS.map(toComponents).filter((parts) => parts.length > 0);
  const extensions = new Set(allowed.FILE_EXTENSIONS_LIST.map((e) => e.replace(/^\./, "").toLowerCase()));
  const mimeTypes = allowed.MIME_TYPES_LIST.map((m) => m.toLowerCase().replace(/\/+$/, ""));

  return (drivePath, mimeType) => {
    if (prefixes.length > 0 && !prefixes.some((prefix) => startsWithComponents(drivePath, prefix))) return "path";
    const extension = extensionOf(drivePath);
    if (allowed.FILE_EXTENSIONS && !extensions.has(extension)) return "extension";
    if (allowed.MIME_TYPES && mimeType !== undefined) {
      const mime = mimeType.toLowerCase();
      if (!mimeTypes.some((m) => mime === m || mime.startsWith(`${m}/`))) return "mime type";
      // Drive labels .sub subtitles video/MP2G; they are not videos.
      if (extension === "sub" && mime.startsWith("video/")) return "mime type";
    }
    return undefined;
  };
}

/** Lower-cased components; plex_autoscan compared FILE_PATHS case-insensitively and configs rely on it. */
function toComponents(path: string): string[] {
  return path
    .toLowerCase()
    .split("/")
    .filter((part) => part !== "");
}

function startsWithComponents(path: string, prefix: string[]): boolean {
  const parts = toComponents(path);
  return prefix.length <= parts.length && prefix.every((part, i) => parts[i] === part);
}

/** The real extension of the last component: none for `.hidden` or `name.`. */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
}
