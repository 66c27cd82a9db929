import type { Library, Target } from "../domain.js";
import type { LibraryCatalog } from "../server/ingest.js";

/** A target that already keeps its libraries (the Plex API target does). */
interface CatalogTarget extends Target {
  knownLibraries?: () => Library[] | undefined;
  refreshLibraries?: () => Promise<unknown>;
}

/**
 * The libraries the HTTP side checks requests against. Targets that cache
 * their own list are used as they are; for others the last successful
 * listLibraries() is remembered.
 */
export function catalogOf(target: CatalogTarget): LibraryCatalog {
  if (target.knownLibraries && target.refreshLibraries) {
    return { knownLibraries: () => target.knownLibraries?.(), refreshLibraries: () => target.refreshLibraries?.() ?? Promise.resolve() };
  }
  let known: Library[] | undefined;
  let inflight: Promise<unknown> | undefined;
  const refreshLibraries = () => {
    inflight ??= target
      .listLibraries()
      .then((libraries) => (known = libraries))
      .catch(() => undefined)
      .finally(() => (inflight = undefined));
    return inflight;
  };
  void refreshLibraries();
  return { knownLibraries: () => known, refreshLibraries };
}
