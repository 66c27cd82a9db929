import type { Library } from "../domain.js";
import { isPrefixOf, parsePath, type ParsedPath } from "./parse.js";

function tryParse(path: string): ParsedPath | undefined {
  try {
    return parsePath(path);
  } catch {
    return undefined;
  }
}

/** Whether `child` is `parent` or inside it, by whole path components. */
export function isWithin(parent: string, child: string): boolean {
  const p = tryParse(parent);
  const c = tryParse(child);
  return p !== undefined && c !== undefined && isPrefixOf(p, c);
}

/**
 * The libraries with a location containing `folder`, the one with the longest
 * such location first. Components are compared whole (`/TV` does not hold
 * `/TV 2/...`).
 */
export function findLibrariesFor(folder: string, libraries: readonly Library[]): Library[] {
  const target = tryParse(folder);
  if (!target) return [];
  const scored: Array<{ library: Library; depth: number }> = [];
  for (const library of libraries) {
    let depth = -1;
    for (const location of library.locations) {
      const parsed = tryParse(location);
      if (parsed && isPrefixOf(parsed, target)) depth = Math.max(depth, parsed.parts.length);
    }
    if (depth >= 0) scored.push({ library, depth });
  }
  return scored.sort((a, b) => b.depth - a.depth).map((s) => s.library);
}
