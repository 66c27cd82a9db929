import type { Config, TargetConfig } from "../config/types.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { CachedTarget } from "./cached-target.js";

/** What building a target may use besides its config entry. */
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

/** One TARGETS entry and where it sits in the config (`TARGETS[2]`), for messages naming its keys. */
export interface TargetEntry {
  entry: TargetConfig;
  at: string;
  /** The whole config, for the flat keys an entry's unset fields fall back to (a Plex entry's after-scan settings). */
  config?: Config;
}

/**
 * Builds the target of one TARGETS entry of its TYPE; nothing is contacted
 * until its libraries are asked for. Each target folder exports one, and
 * registry.ts maps the TYPE to it.
 */
export type TargetFactory = (entry: TargetEntry, deps: TargetBuildDeps) => CachedTarget;

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
