import type { Library, LibraryCatalog, TargetRuntime } from "../domain.js";
import { findLibrariesFor, matcherOf } from "../paths/index.js";

/**
 * What the way in (src/ingest) checks requests against when there are several targets:
 * a folder is refused only when every target's libraries are known and none
 * holds it (in that target's own path form). Each target's LibraryCache keeps
 * its list and rate-limits refetches.
 */
export function catalogOfTargets(built: readonly TargetRuntime[]): LibraryCatalog {
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
    librariesHolding(folder: string): Library[] | undefined {
      let unknown = false;
      const holding: Library[] = [];
      for (const b of built) {
        const libraries = b.libraries.knownLibraries();
        if (libraries === undefined) unknown = true;
        else holding.push(...findLibrariesFor(b.toTargetPath(folder), libraries));
      }
      return holding.length > 0 || !unknown ? holding : undefined;
    },
    libraryRootsOf(path: string): string[] | undefined {
      let unknown = false;
      const roots = new Set<string>();
      for (const b of built) {
        const libraries = b.libraries.knownLibraries();
        if (libraries === undefined) unknown = true;
        else for (const root of matcherOf(libraries).rootsOf(path, b.toTargetPath(path))) roots.add(root);
      }
      return roots.size > 0 || !unknown ? [...roots] : undefined;
    },
    refreshLibraries: () => Promise.all(built.map((b) => b.libraries.refreshLibraries())),
  };
}
