/**
 * Folder strings as the queue compares them: by whole path components, for
 * both POSIX (`/TV/Show`) and Windows (`D:\Media\TV\Show`, `\\nas\share\TV`)
 * media-server paths. Comparison is case-sensitive, as Plex on Linux is.
 */

export type Separator = "/" | "\\";

const DRIVE_ROOT = /^[A-Za-z]:\\$/;
const DRIVE_PREFIX = /^[A-Za-z]:[\\/]/;

/** The separator a media-server path uses: a drive letter or UNC start means Windows. */
export function separatorOf(folder: string): Separator {
  if (DRIVE_PREFIX.test(folder) || folder.startsWith("\\\\")) return "\\";
  if (!folder.includes("/") && folder.includes("\\")) return "\\";
  return "/";
}

/**
 * The folder without trailing separators, keeping a root (`/`, `D:\`) whole.
 * Throws when the string cannot be a media-server folder: mapping and
 * validation happen before the queue, so this guards against callers' bugs.
 */
export function normalizeFolder(raw: string): string {
  if (raw.includes("\0")) throw new TypeError("a folder to scan cannot contain a NUL byte");
  const sep = separatorOf(raw);
  // Windows accepts both separators; one spelling keeps one key per folder.
  const folder = sep === "\\" ? upperDrive(raw.replaceAll("/", "\\")) : raw;
  if (!(folder.startsWith(sep) || DRIVE_PREFIX.test(folder))) {
    throw new TypeError(`a folder to scan must be absolute, got "${folder}"`);
  }
  if (folder.split(sep).includes("..")) throw new TypeError(`a folder to scan cannot contain "..", got "${folder}"`);
  let end = folder.length;
  while (end > 1 && folder[end - 1] === sep) end--;
  const trimmed = folder.slice(0, end);
  if (/^[A-Za-z]:$/.test(trimmed)) return trimmed + sep;
  return trimmed;
}

function upperDrive(folder: string): string {
  return /^[a-z]:/.test(folder) ? folder[0]?.toUpperCase() + folder.slice(1) : folder;
}

function isRoot(folder: string): boolean {
  return folder === "/" || folder === "\\" || DRIVE_ROOT.test(folder);
}

/** Every strict ancestor of a normalized folder, root first (`/TV/Show` gives `/`, `/TV`). */
export function ancestorsOf(folder: string): string[] {
  const sep = separatorOf(folder);
  const out: string[] = [];
  for (let i = 0; i < folder.length; i++) {
    if (folder[i] !== sep) continue;
    let prefix = folder.slice(0, i);
    // A root keeps its separator: "/" and "D:\" are folders, "" and "D:" are not.
    if (prefix === "" || /^[A-Za-z]:$/.test(prefix)) prefix = folder.slice(0, i + 1);
    if (prefix !== folder && out[out.length - 1] !== prefix) out.push(prefix);
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
  const from = isRoot(folder) ? folder : folder + sep;
  const to = from.slice(0, -1) + String.fromCharCode(sep.charCodeAt(0) + 1);
  return { from, to };
}
