import { formatPath, parsePath, type ParsedPath } from "../paths/parse.js";

/** Folder paths read and compared for deriveMappings: names, common suffixes, prefixes as the config writes them. */

export interface Parsed {
  raw: string;
  path: ParsedPath;
}

/**
 * The prefixes an app item and a server item leave once their longest common
 * suffix is cut off, at most `below` components (the item's depth under its
 * app root, so the mapping is never wider than the root), and how alike the
 * folders above are when case is ignored. `shared` 0: not the same name.
 */
export function prefixPair(
  app: ParsedPath,
  server: ParsedPath,
  below: number,
): { from: ParsedPath; to: ParsedPath; shared: number; alike: number } {
  const fold = app.style === "windows" || server.style === "windows";
  const same = (a: string | undefined, b: string | undefined) =>
    a !== undefined && b !== undefined && (fold ? a.toLowerCase() === b.toLowerCase() : a === b);
  const max = Math.min(app.parts.length, server.parts.length);
  let shared = 0;
  while (shared < Math.min(max, below) && same(app.parts.at(-1 - shared), server.parts.at(-1 - shared))) shared++;
  let alike = shared;
  while (alike < max && looseName(app.parts.at(-1 - alike)) === looseName(server.parts.at(-1 - alike))) alike++;
  const cut = (path: ParsedPath): ParsedPath => ({ ...path, parts: path.parts.slice(0, path.parts.length - shared), trailingSlash: true });
  return { from: cut(app), to: cut(server), shared, alike };
}

/** A folder name with case, spaces and punctuation ignored: `movies4k` is `Movies 4K`. */
function looseName(name: string | undefined): string {
  return (name ?? "").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

/** The target's roots, those whose last folder is named most like the app root's first. */
export function rankRoots(roots: readonly string[], root: ParsedPath): string[] {
  const last = (root.parts.at(-1) ?? "").toLowerCase();
  const score = (raw: string): number => {
    const name = (
      raw
        .replace(/[\\/]+$/, "")
        .split(/[\\/]/)
        .pop() ?? ""
    ).toLowerCase();
    if (name === last) return 0;
    return name.includes(last) || last.includes(name) ? 1 : 2;
  };
  return [...new Set(roots)].sort((a, b) => score(a) - score(b)).map((raw) => display(parsed(raw)?.path ?? null) ?? raw);
}

/** The lookup key of a folder's name; case is ignored here (a server on Windows) and weighed by prefixPair. */
export function nameKey(path: ParsedPath): string {
  return (path.parts.at(-1) ?? "").toLowerCase();
}

function parsed(raw: string): Parsed | undefined {
  try {
    return { raw, path: parsePath(raw) };
  } catch {
    return undefined;
  }
}

/** The paths that can be read as paths; the others (empty, control characters) cannot be matched and are left out. */
export function parseAll(raws: readonly string[]): Parsed[] {
  return raws.flatMap((raw) => {
    const one = parsed(raw);
    return one && one.path.style !== "relative" ? [one] : [];
  });
}

/** A prefix as the config writes it: with its trailing separator. */
export function display(path: ParsedPath): string;
export function display(path: ParsedPath | null): string | undefined;
export function display(path: ParsedPath | null): string | undefined {
  if (path === null) return undefined;
  return formatPath({ ...path, trailingSlash: true });
}
