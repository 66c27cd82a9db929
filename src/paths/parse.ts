/**
 * The one place that decides what a path string is. Three styles exist in
 * scan requests: POSIX (`/data/TV/...`), Windows (`D:\Media\...`,
 * `\\nas\media\...`, and `\Media\...`, rooted on the current drive) and
 * cloud-drive paths without a root (`My Drive/Media/...`). Windows paths take
 * both separators and compare case-insensitively; the others take `/` only
 * (a backslash is an ordinary POSIX file-name character) and compare exactly.
 */
export type PathStyle = "posix" | "windows" | "relative";

export interface ParsedPath {
  style: PathStyle;
  /** "/" for POSIX; "D:", "\\\\" (UNC) or "\\" (no drive) for Windows; "" for relative. */
  root: string;
  parts: string[];
  trailingSlash: boolean;
}

/** Longest path accepted anywhere, in UTF-8 bytes (Linux's PATH_MAX). */
export const MAX_PATH_BYTES = 4096;

const DRIVE = /^[A-Za-z]:(?:[\\/]|$)/;
const UNC_ROOT = "\\\\";
const NO_DRIVE_ROOT = "\\";
// A lone UTF-16 surrogate comes from a `\ud800` JSON escape: it names no file and cannot be stored as UTF-8.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// C0, DEL and C1: no media file needs one, and a line break or a terminal escape in a path would
// split or rewrite the lines it is written into (log lines, chat notifications).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_NAMES: Record<number, string> = { 0: "a NUL byte", 9: "a tab", 10: "a line feed", 13: "a carriage return" };

/**
 * Why `raw` cannot be a path because it holds a control character, or
 * undefined when it holds none. Names the first one by its code point and
 * its position (counted in characters from 1), never by the character
 * itself, so the reason can be shown and logged as it is.
 */
export function controlCharacterIn(raw: string): string | undefined {
  const found = CONTROL_CHARACTER.exec(raw);
  if (found === null) return undefined;
  const code = found[0].charCodeAt(0);
  const position = [...raw.slice(0, found.index)].length + 1;
  const name = CONTROL_NAMES[code] ?? "a control character";
  return `contains ${name} (U+${code.toString(16).toUpperCase().padStart(4, "0")}) at character ${position}`;
}

/** Why a path cannot be used; the mapper wraps it in a PathError. */
export class PathSyntaxError extends Error {}

/** The style of a path, decided by its start alone. */
export function styleOf(raw: string): PathStyle {
  if (raw.startsWith("\\") || DRIVE.test(raw)) return "windows";
  if (raw.startsWith("/")) return "posix";
  return "relative";
}

/** The separator a path of this style is written with. */
export function separatorFor(style: PathStyle): "/" | "\\" {
  return style === "windows" ? "\\" : "/";
}

/** Whether the path names one folder whatever the working directory: POSIX, a drive letter or UNC. */
export function isAbsolutePath(path: ParsedPath): boolean {
  return path.style === "posix" || (path.style === "windows" && path.root !== NO_DRIVE_ROOT);
}

// Printable ASCII: no control character, one byte a character, no surrogate, already NFC. Most paths are.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export function parsePath(raw: string): ParsedPath {
  // The checks below, in one pass for most paths (about half of a parse's cost, and a webhook parses its paths about 8 times).
  const plain = raw.length <= MAX_PATH_BYTES && PRINTABLE_ASCII.test(raw);
  if (!plain) {
    const control = controlCharacterIn(raw);
    if (control !== undefined) throw new PathSyntaxError(control);
    if (Buffer.byteLength(raw, "utf8") > MAX_PATH_BYTES) throw new PathSyntaxError(`is longer than ${MAX_PATH_BYTES} bytes`);
    if (LONE_SURROGATE.test(raw)) throw new PathSyntaxError("is not valid Unicode (a lone surrogate)");
  }
  const text = plain ? raw : raw.normalize("NFC");
  if (text.trim() === "") throw new PathSyntaxError("is empty");
  const style = styleOf(text);
  const [root, rest] = splitRoot(text, style);
  const parts = (style === "windows" ? rest.split(/[\\/]/) : rest.split("/")).filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) throw new PathSyntaxError("contains a '..' segment");
  const trailingSlash = style === "windows" ? /[\\/]$/.test(rest) : rest.endsWith("/");
  return { style, root, parts, trailingSlash: trailingSlash && parts.length > 0 };
}

function splitRoot(text: string, style: PathStyle): [string, string] {
  if (style === "posix") return ["/", text.slice(1)];
  if (style === "relative") return ["", text];
  if (text.startsWith(UNC_ROOT)) return [UNC_ROOT, text.slice(2)];
  if (text.startsWith(NO_DRIVE_ROOT)) return [NO_DRIVE_ROOT, text.slice(1)];
  // The drive letter is case-insensitive; one spelling keeps one key per folder.
  return [text.slice(0, 2).toUpperCase(), text.slice(2)];
}

/** parsePath, or undefined for a path it refuses (where such a path simply matches nothing). */
export function tryParsePath(raw: string): ParsedPath | undefined {
  try {
    return parsePath(raw);
  } catch {
    return undefined;
  }
}

/** Whether `prefix` is `path` or one of its ancestors, compared by whole components. */
export function isPrefixOf(prefix: ParsedPath, path: ParsedPath): boolean {
  if (prefix.style !== path.style || prefix.root !== path.root) return false;
  if (prefix.parts.length > path.parts.length) return false;
  const fold = prefix.style === "windows";
  return prefix.parts.every((part, i) => {
    const other = path.parts[i] as string;
    return fold ? part.toLowerCase() === other.toLowerCase() : part === other;
  });
}

/** The path in its one canonical spelling: the style's separator, no empty or "." components. */
export function formatPath(path: ParsedPath): string {
  const sep = separatorFor(path.style);
  const body = path.parts.join(sep);
  let out: string;
  if (path.style === "windows")
    out = path.root === UNC_ROOT || path.root === NO_DRIVE_ROOT ? `${path.root}${body}` : `${path.root}\\${body}`;
  else out = `${path.root}${body}`;
  if (path.trailingSlash && path.parts.length > 0) out += sep;
  return out;
}

/** The parent folder; the root (or a drive name alone) has none and returns itself. */
export function parentOf(path: ParsedPath): ParsedPath {
  const keep = path.style === "relative" ? 1 : 0;
  if (path.parts.length <= keep) return { ...path, trailingSlash: false };
  return { ...path, parts: path.parts.slice(0, -1), trailingSlash: false };
}

/** `path` with its first `prefix.parts.length` components spelled as `prefix` spells them. */
export function respell(path: ParsedPath, prefix: ParsedPath): ParsedPath {
  return { ...path, root: prefix.root, parts: [...prefix.parts, ...path.parts.slice(prefix.parts.length)] };
}
