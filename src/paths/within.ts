import type { Library } from "../domain.js";
import { formatPath, isPrefixOf, respell, tryParsePath, type ParsedPath } from "./parse.js";

/** Whether `child` is `parent` or inside it, by whole path components. */
export function isWithin(parent: string, child: string): boolean {
  const p = tryParsePath(parent);
  const c = tryParsePath(child);
  return p !== undefined && c !== undefined && isPrefixOf(p, c);
}

/** Libraries with their locations parsed once, for checking many folders against them. */
export interface LibraryMatcher {
  /** The libraries holding `folder`, the one with the longest such location first. */
  librariesFor(folder: string): Library[];
  /**
   * `folder` with its library location spelled as the media server spells it,
   * so `d:\tv\Show` and `D:\TV\Show` become one folder when the library is
   * `D:\TV`; unchanged when no library holds it.
   */
  spellLikeLibrary(folder: string): string;
  /**
   * The library locations holding `path`, each written as the ancestor of
   * `path` it is. `seen` is the same path as the libraries' server sees it
   * (a target's PATH_MAPPINGS applied; `path` itself by default): a location
   * holding `seen` with n components below it is `path` less its last n.
   */
  rootsOf(path: string, seen?: string): string[];
}

export function createLibraryMatcher(libraries: readonly Library[]): LibraryMatcher {
  const locations = libraries.flatMap((library) =>
    library.locations.flatMap((location) => {
      const parsed = tryParsePath(location);
      return parsed ? [{ library, parsed }] : [];
    }),
  );
  const matches = (folder: string) => {
    const target = tryParsePath(folder);
    if (!target) return { target, hits: [] };
    return { target, hits: locations.filter((l) => isPrefixOf(l.parsed, target)) };
  };
  return {
    librariesFor(folder) {
      const depth = new Map<Library, number>();
      for (const hit of matches(folder).hits) depth.set(hit.library, Math.max(depth.get(hit.library) ?? -1, hit.parsed.parts.length));
      return [...depth].sort((a, b) => b[1] - a[1]).map(([library]) => library);
    },
    spellLikeLibrary(folder) {
      const { target, hits } = matches(folder);
      const longest = hits.reduce<ParsedPath | undefined>(
        (best, hit) => (best && best.parts.length >= hit.parsed.parts.length ? best : hit.parsed),
        undefined,
      );
      return target && longest ? formatPath(respell(target, longest)) : folder;
    },
    rootsOf(path, seen = path) {
      const own = tryParsePath(path);
      const { target, hits } = matches(seen);
      if (!own || !target) return [];
      const roots = new Set<string>();
      for (const hit of hits) {
        const below = target.parts.length - hit.parsed.parts.length;
        if (below <= own.parts.length)
          roots.add(formatPath({ ...own, parts: own.parts.slice(0, own.parts.length - below), trailingSlash: false }));
      }
      return [...roots];
    },
  };
}

/**
 * The libraries with a location containing `folder`, the one with the longest
 * such location first. Components are compared whole (`/TV` does not hold
 * `/TV 2/...`).
 */
export function findLibrariesFor(folder: string, libraries: readonly Library[]): Library[] {
  return matcherOf(libraries).librariesFor(folder);
}

// A library list is kept as one array until it is fetched again: its parsed locations are reused
// by every request until then, not parsed again per request.
const matchers = new WeakMap<readonly Library[], LibraryMatcher>();

/** The matcher of `libraries`, built once per list. */
export function matcherOf(libraries: readonly Library[]): LibraryMatcher {
  let matcher = matchers.get(libraries);
  if (!matcher) {
    matcher = createLibraryMatcher(libraries);
    matchers.set(libraries, matcher);
  }
  return matcher;
}
