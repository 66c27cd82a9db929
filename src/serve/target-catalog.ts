import type { Library, LibraryCatalog, TargetLibraries, TargetRuntime } from "../domain.js";
import { findLibrariesFor, matcherOf } from "../paths/index.js";

/** What the catalog reads of a running target: its library list and its own path form. */
export type CatalogTarget = Pick<TargetRuntime, "toTargetPath"> & {
  libraries: Pick<TargetLibraries, "knownLibraries" | "refreshLibraries">;
};

/**
 * What the way in (src/ingest) checks requests against when there are several targets:
 * a folder is refused only when every target's libraries are known and none
 * holds it (in that target's own path form). Each target's LibraryCache keeps
 * its list and rate-limits refetches.
 */
export function catalogOfTargets(built: readonly CatalogTarget[]): LibraryCatalog {
  // The joined list stays the same array while no target's list changed, so its matcher is reused.
  let joined: { from: Array<Library[] | undefined>; libraries: Library[] | undefined } = { from: [], libraries: undefined };
  return {
    knownLibraries() {
      const lists = built.map((b) => b.libraries.knownLibraries());
      if (lists.length === joined.from.length && lists.every((l, i) => l === joined.from[i])) return joined.libraries;
      const libraries = lists.some((l) => l === undefined) ? undefined : lists.flatMap((l) => l ?? []);
      joined = { from: lists, libraries };
      return libraries;
    },
    librariesHolding: (folder) => acrossTargets(built, (libraries, b) => findLibrariesFor(b.toTargetPath(folder), libraries)),
    libraryRootsOf(path) {
      const roots = acrossTargets(built, (libraries, b) => matcherOf(libraries).rootsOf(path, b.toTargetPath(path)));
      return roots && [...new Set(roots)];
    },
    refreshLibraries: () => Promise.all(built.map((b) => b.libraries.refreshLibraries())),
  };
}

/**
 * What `pick` finds in each target's known libraries, together; undefined when
 * nothing was found and some target's libraries are not known yet (the
 * answer cannot be told).
 */
function acrossTargets<T>(
  built: readonly CatalogTarget[],
  pick: (libraries: Library[], b: CatalogTarget) => readonly T[],
): T[] | undefined {
  let unknown = false;
  const found: T[] = [];
  for (const b of built) {
    const libraries = b.libraries.knownLibraries();
    if (libraries === undefined) unknown = true;
    else found.push(...pick(libraries, b));
  }
  return found.length > 0 || !unknown ? found : undefined;
}
