/**
 * Folder strings as the queue compares them: whole path components, in the
 * one canonical spelling src/paths gives a media-server folder (POSIX
 * `/TV/Show`, Windows `D:\Media\TV\Show` or `\\nas\share\TV`). The key is
 * compared byte for byte, so two spellings of one Windows folder coalesce
 * only once the server spelled them alike (see createLibraryMatcher).
 */
import { formatPath, isAbsolutePath, parsePath, PathSyntaxError, separatorFor, styleOf, type ParsedPath } from "../paths/index.js";

export type Separator = "/" | "\\";

/** The separator a media-server path uses: a drive letter or a leading backslash means Windows. */
export function separatorOf(folder: string): Separator {
  return separatorFor(styleOf(folder));
}

/**
 * The folder in canonical spelling, without a trailing separator, keeping a
 * root (`/`, `D:\`) whole. Throws when the string cannot be a media-server
 * folder: mapping and validation happen before the queue, so this guards
 * against callers' bugs.
 */
export function normalizeFolder(raw: string): string {
  const parsed = parseFolder(raw);
  if (!isAbsolutePath(parsed)) throw new TypeError(`a folder to scan must be absolute, got "${raw}"`);
  return formatPath({ ...parsed, trailingSlash: false });
}

function parseFolder(raw: string): ParsedPath {
  try {
    return parsePath(raw);
  } catch (error) {
    if (error instanceof PathSyntaxError) throw new TypeError(`a folder to scan ${error.message}`);
    throw error;
  }
}

/** Every strict ancestor of a normalized folder, root first (`/TV/Show` gives `/`, `/TV`). */
export function ancestorsOf(folder: string): string[] {
  const parsed = parseFolder(folder);
  // A UNC path starts at its server: `\\nas` is the first folder there is.
  const first = parsed.root === "\\\\" ? 1 : 0;
  const out: string[] = [];
  for (let length = first; length < parsed.parts.length; length++) {
    out.push(formatPath({ ...parsed, parts: parsed.parts.slice(0, length), trailingSlash: false }));
  }
  return out;
}

/**
 * The half-open string range holding every strict descendant of a folder:
 * `[folder + sep, folder + nextChar(sep))`. SQLite's BINARY collation orders
 * by bytes, and both separators are ASCII, so the range is exact.
 */
export function descendantRangeOf(folder: string): { from: string; to: string } {
  const sep = separatorOf(folder);
  const from = folder.endsWith(sep) ? folder : folder + sep;
  const to = from.slice(0, -1) + String.fromCharCode(sep.charCodeAt(0) + 1);
  return { from, to };
}
