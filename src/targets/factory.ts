import type { Config, TargetConfig } from "../config/types.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { Target } from "../domain.js";
import type { LibraryCache } from "./library-cache.js";

/** What building a target may use besides its config entry. */
export interface TargetBuildDeps {
  logger: Logger;
  clock?: Clock;
  /** The environment Plex Media Scanner starts from (a Plex entry with the scanner method). */
  env?: NodeJS.ProcessEnv;
  /** Aborting it stops a running Plex Media Scanner (service shutdown). */
  signal?: AbortSignal;
  fetch?: typeof fetch;
  /** Per-request time-out of every HTTP target (tests pass a short one); 30 s, Plex 10 s, by default. */
  timeoutMs?: number;
}

/** One TARGETS entry and where it sits in the user's file (`TARGETS[2]`), for messages naming its keys. */
export interface TargetEntry {
  entry: TargetConfig;
  at: string;
  /** The key a message names for one of its fields (`TARGETS[2].URL`, or `PLEX_LOCAL_URL` for the entry the flat keys made); `${at}.${field}` when absent. */
  keyOf?: (field: string) => string;
  /** The whole config: Plex Media Scanner's own keys (the scanner method), the defaults of an entry the loader did not fill. */
  config?: Config;
}

/**
 * Builds the target of one TARGETS entry of its TYPE; nothing is contacted
 * until its libraries are asked for. Each target folder exports one, and
 * registry.ts maps the TYPE to it.
 */
export type TargetFactory = (entry: TargetEntry, deps: TargetBuildDeps) => BuiltTarget;

/** A target with the cache over its library list (a CachedTarget, or the scanner method's target with one beside it). */
export type BuiltTarget = Target & { readonly libraries: LibraryCache; readonly where: string };

/** The client options of an entry whose credential is TOKEN sent as a header (Tdarr, Sonarr, Radarr). */
export function keyClientOptionsOf({ entry, at }: TargetEntry, { fetch, timeoutMs }: TargetBuildDeps): KeyClientOptions {
  return { baseUrl: entry.URL, apiKey: entry.TOKEN, urlKey: `${at}.URL`, credentialKey: `${at}.TOKEN`, timeoutMs, fetch };
}

/** How a client whose credential is one key sent as a header (Tdarr, Sonarr, Radarr) is set up from a TARGETS entry. */
export interface KeyClientOptions {
  /** The server's address as scanarr reaches it (a reverse-proxy sub-path is kept). */
  baseUrl: string;
  /** The API key; empty when the server needs none (Tdarr without authentication). */
  apiKey: string;
  /** Config keys of the URL and the key, for messages. */
  urlKey: string;
  credentialKey: string;
  /** Per request; 30 s by default. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}
