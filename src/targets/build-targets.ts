import type { Config, TargetConfig, TargetType } from "../config/types.js";
import type { Target } from "../domain.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import { createPathMapper } from "../paths/mapper.js";
import { AutoscanApiClient } from "./autoscan/api.js";
import { AutoscanTarget } from "./autoscan/autoscan-target.js";
import { EmbyApiClient } from "./emby/api.js";
import { EmbyTarget } from "./emby/emby-target.js";
import { JellyfinApiClient } from "./jellyfin/api.js";
import { JellyfinTarget } from "./jellyfin/jellyfin-target.js";
import { LibraryCache } from "./library-cache.js";
import { createNamedPlexTarget, createPlexTarget } from "./plex/plex-target.js";
import { createScannerTargetFromConfig } from "./plex/scanner-target.js";

export interface TargetBuildDeps {
  logger: Logger;
  clock?: Clock;
  /** The environment Plex Media Scanner starts from (PLEX_SCAN_METHOD "scanner"). */
  env?: NodeJS.ProcessEnv;
  /** Aborting it stops a running Plex Media Scanner (service shutdown). */
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Per-request time-out of every HTTP target (tests pass a short one); 30 s, Plex 10 s, by default. */
  timeoutMs?: number;
}

/** One target ready for delivery. */
export interface BuiltTarget {
  readonly target: Target;
  /** The TARGETS entry's TYPE; "plex" for the flat PLEX_* keys (either scan method). */
  readonly type: TargetType;
  /**
   * Its library list. Delivery resolves a folder with `librariesFor(folder)`
   * (refetches on a miss); the HTTP side uses it as its LibraryCatalog
   * (`knownLibraries()`, `refreshLibraries()`).
   */
  readonly libraries: LibraryCache;
  /** The path this target sees for a media-server path (after SERVER_PATH_MAPPINGS); identity without PATH_MAPPINGS. */
  toTargetPath(path: string): string;
  /** Fetches the libraries now and then every 5 minutes; failures are logged, never thrown. */
  start(): void;
  /** Stops the periodic fetch; a scan in flight is not interrupted. */
  stop(): void;
}

/**
 * Every enabled target, in order: first the Plex target of the flat PLEX_*
 * keys (unless PLEX_ENABLED is false; API or scanner method as configured,
 * named "plex" or "plex-scanner" as before), then each enabled TARGETS entry.
 * Nothing is contacted until start(). Assumes a validated config.
 */
export function buildTargets(config: Config, deps: TargetBuildDeps): BuiltTarget[] {
  const built: BuiltTarget[] = [];
  if (config.PLEX_ENABLED) built.push(buildFlatPlex(config, deps));
  config.TARGETS.forEach((entry, i) => {
    if (!entry.ENABLED) return;
    const at = `TARGETS[${i}]`;
    const target = buildEntry(entry, at, deps);
    built.push(assemble(target, target.libraries, entry.TYPE, mapperFor(entry.PATH_MAPPINGS, `${at}.PATH_MAPPINGS`)));
  });
  return built;
}

/**
 * Wraps a target built elsewhere (a test's fake, a replaced target): its own
 * LibraryCache when it has one, else a cache over its listLibraries().
 */
export function builtFromTarget(target: Target, options: { type?: TargetType; clock?: Clock; logger?: Logger } = {}): BuiltTarget {
  const { type = "plex", ...tuning } = options;
  const libraries = hasCache(target)
    ? target.libraries
    : new LibraryCache({ ...tuning, name: target.name, fetch: () => target.listLibraries() });
  return assemble(target, libraries, type, identity);
}

function buildFlatPlex(config: Config, deps: TargetBuildDeps): BuiltTarget {
  const { clock, logger } = deps;
  if (config.PLEX_SCAN_METHOD === "scanner") {
    const scanner = createScannerTargetFromConfig(config, { env: deps.env ?? {}, logger, signal: deps.signal });
    // The scanner target reads the Plex database on every listLibraries(); the cache serves the HTTP side.
    const libraries = new LibraryCache({ name: scanner.name, fetch: () => scanner.listLibraries(), clock, logger });
    return assemble(scanner, libraries, "plex", identity);
  }
  const plex = createPlexTarget(config, { clock, logger, fetch: deps.fetch, timeoutMs: deps.timeoutMs });
  return assemble(plex, plex.libraries, "plex", identity);
}

function buildEntry(entry: TargetConfig, at: string, deps: TargetBuildDeps): Target & { readonly libraries: LibraryCache } {
  const { clock, logger, fetch, timeoutMs } = deps;
  const keys = { urlKey: `${at}.URL`, tokenKey: `${at}.TOKEN` };
  const common = { baseUrl: entry.URL, token: entry.TOKEN, ...keys, timeoutMs, fetch };
  switch (entry.TYPE) {
    case "plex":
      return createNamedPlexTarget({ name: entry.NAME, url: entry.URL, token: entry.TOKEN, ...keys }, deps);
    case "jellyfin":
      return new JellyfinTarget({ name: entry.NAME, api: new JellyfinApiClient(common), clock, logger });
    case "emby":
      return new EmbyTarget({ name: entry.NAME, api: new EmbyApiClient(common), clock, logger });
    case "autoscan": {
      const api = new AutoscanApiClient({
        baseUrl: entry.URL,
        username: entry.USERNAME,
        password: entry.PASSWORD,
        urlKey: keys.urlKey,
        credentialKey: `${at}.USERNAME and ${at}.PASSWORD`,
        timeoutMs,
        fetch,
      });
      return new AutoscanTarget({ name: entry.NAME, api, clock, logger });
    }
  }
}

function assemble(target: Target, libraries: LibraryCache, type: TargetType, toTargetPath: (path: string) => string): BuiltTarget {
  return {
    target,
    type,
    libraries,
    toTargetPath,
    start: () => libraries.start(),
    stop: () => libraries.stop(),
  };
}

function mapperFor(mappings: Record<string, string[]>, label: string): (path: string) => string {
  if (Object.keys(mappings).length === 0) return identity;
  const mapper = createPathMapper(mappings, label);
  return (path) => mapper.toServerPath(path);
}

function identity(path: string): string {
  return path;
}

function hasCache(target: Target): target is Target & { readonly libraries: LibraryCache } {
  return (target as { libraries?: unknown }).libraries instanceof LibraryCache;
}
