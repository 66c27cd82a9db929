/**
 * A path split into its root and components. Three styles exist in scan
 * requests: POSIX (`/data/TV/...`), Windows (`D:\Media\...`, `\\nas\media\...`)
 * and cloud-drive paths without a root (`My Drive/Media/...`).
 */
export type PathStyle = "posix" | "windows" | "relative";

export interface ParsedPath {
  style: PathStyle;
  /** "/" for POSIX, "D:" or "\\\\" (UNC) for Windows, "" for relative. */
  root: string;
  parts: string[];
  trailingSlash: boolean;
}

const WINDOWS_DRIVE = /^[A-Za-z]:[\\/]/;
const WINDOWS_DRIVE_BARE = /^[A-Za-z]:$/;

/** Why a path cannot be used; the mapper wraps it in a PathError. */
export class PathSyntaxError extends Error {}

export function parsePath(raw: string): ParsedPath {
  if (raw.includes("\0")) throw new PathSyntaxError("contains a NUL byte");
  const text = raw.normalize("NFC");
  if (text.trim() === "") throw new PathSyntaxError("is empty");
  let style: PathStyle;
  let root: string;
  let rest: string;
  if (text.startsWith("\\\\")) {
    style = "windows";
    root = "\\\\";
    rest = text.slice(2);
  } else if (WINDOWS_DRIVE.test(text) || WINDOWS_DRIVE_BARE.test(text)) {
    style = "windows";
    root = text.slice(0, 2).toUpperCase();
    rest = text.slice(2);
  } else if (text.startsWith("/")) {
    style = "posix";
    root = "/";
    rest = text.slice(1);
  } else {
    style = "relative";
    root = "";
    rest = text;
  }
  const separator = style === "windows" ? /[\\/]/ : /\//;
  const parts = rest.split(separator).filter((p) => p !== "" && p !== ".");
  if (parts.includes("..")) throw new PathSyntaxError("contains a '..' segment");
  const trailingSlash = style === "windows" ? /[\\/]$/.test(rest) : rest.endsWith("/");
  return { style, root, parts, trailingSlash: trailingSlash && parts.length > 0 };
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

export function formatPath(path: ParsedPath): string {
  const sep = path.style === "windows" ? "\\" : "/";
  const body = path.parts.join(sep);
  let out: string;
  if (path.style === "windows") out = path.root === "\\\\" ? `\\\\${body}` : `${path.root}\\${body}`;
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
