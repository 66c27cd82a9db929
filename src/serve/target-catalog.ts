import type { Library } from "../domain.js";
import { findLibrariesFor } from "../paths/index.js";
import type { LibraryCatalog } from "../server/ingest.js";
import type { BuiltTarget } from "../targets/build-targets.js";

/**
 * What the HTTP side checks requests against when there are several targets:
 * a folder is refused only when every target's libraries are known and none
 * holds it (in that target's own path form). Each target's LibraryCache keeps
 * its list and rate-limits refetches.
 */
export function catalogOfTargets(built: readonly BuiltTarget[]): LibraryCatalog {
  return {
    knownLibraries() {
      const lists = built.map((b) => b.libraries.knownLibraries());
      return lists.some((l) => l === undefined) ? undefined : lists.flatMap((l) => l ?? []);
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
    refreshLibraries: () => Promise.all(built.map((b) => b.libraries.refreshLibraries())),
  };
}
