import type { Library, Target } from "../domain.js";
import type { Clock } from "../lib/clock.js";
import type { LibraryCatalog } from "../server/ingest.js";

/** A target that already keeps its libraries (the Plex API target does). */
interface CatalogTarget extends Target {
  knownLibraries?: () => Library[] | undefined;
  refreshLibraries?: () => Promise<unknown>;
}

/** A path in no library refetches the list at most this often, so bad requests cannot flood the media server. */
export const MISS_REFRESH_INTERVAL_MS = 30_000;

/**
 * The libraries the HTTP side checks requests against: the target's own cache
 * when it keeps one, else the last successful listLibraries(). Refreshes
 * asked for by requests are shared while in flight and rate-limited.
 */
export function catalogOf(target: CatalogTarget, clock: Clock): LibraryCatalog {
  let known: Library[] | undefined;
  let inflight: Promise<unknown> | undefined;
  let lastRefresh = -Infinity;
  const fetchNow = (): Promise<unknown> =>
    target.refreshLibraries ? target.refreshLibraries() : target.listLibraries().then((libraries) => (known = libraries));
  const refreshLibraries = (): Promise<unknown> => {
    if (inflight) return inflight;
    if (clock.now() - lastRefresh < MISS_REFRESH_INTERVAL_MS) return Promise.resolve();
    lastRefresh = clock.now();
    inflight = fetchNow()
      .catch(() => undefined)
      .finally(() => (inflight = undefined));
    return inflight;
  };
  if (!target.knownLibraries) void refreshLibraries();
  return { knownLibraries: () => (target.knownLibraries ? target.knownLibraries() : known), refreshLibraries };
}
