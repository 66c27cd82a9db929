import { PLEX_TARGET_NAMES } from "../../config/defaults.js";
import type { Config } from "../../config/types.js";
import type { AfterScanCapability, ItemRefreshReport, Library } from "../../domain.js";
import { systemClock, type Clock } from "../../lib/clock.js";
import type { FolderListing } from "./folder-listing.js";
import type { Logger } from "../../lib/logger.js";
import { CachedTarget } from "../cached-target.js";
import type { TargetFactory } from "../factory.js";
import type { LibraryCacheTuning } from "../library-cache.js";
import { PlexApiClient } from "./api.js";
import type { PlexEntry } from "./config.js";
import { refreshPlexItems } from "./item-refresh.js";
import { createPlexLookup, type PlexLookup } from "./library-lookup.js";
import { itemsOfRef } from "./sidecar-items.js";
import { createPlexAfterScan, type AfterScanConfig } from "./after-scan.js";
import { afterScanConfigOfEntry } from "./after-scan-config.js";

/**
 * How long folder-view listings above a file's folder serve further item
 * lookups: a new folder missing from a stale one only costs a folder scan
 * (the file counts as unknown), never a wrong refresh.
 */
const WALK_CACHE_MS = 30_000;
const WALK_CACHE_ENTRIES = 10_000;

/** What the target uses of the API; PlexApiClient has it, tests may pass less. */
export type PlexApi = Pick<PlexApiClient, "where" | "listLibraries" | "refresh" | "checkAccess" | "refreshItem" | "analyzeItem">;

export interface PlexTargetOptions extends LibraryCacheTuning {
  api: PlexApi;
  /** Finds a file's item (the library database, else the folder view); without it items are never refreshed. */
  lookup?: Pick<PlexLookup, "locate">;
  /** Shown in logs and the API; "plex" (the flat PLEX_* keys) by default. */
  name?: string;
  /** Its after-scan capability (after-scan.ts), when its settings are known. */
  afterScan?: AfterScanCapability;
}

/**
 * Plex through its HTTP API (`PLEX_SCAN_METHOD: "api"`). The libraries live
 * in a LibraryCache: refetched when older than the TTL, when a folder matches
 * no library, and after a scan failed in a way that hints at a stale section.
 */
export class PlexTarget extends CachedTarget {
  /** A folder in a 4K and a 1080p library is scanned in both. */
  readonly scansPerLibrary = true;
  override readonly confirms = true;
  readonly where: string;
  readonly afterScan?: AfterScanCapability;
  private readonly api: PlexApi;
  private readonly lookup: Pick<PlexLookup, "locate"> | undefined;
  private readonly clock: Clock;
  /** Folder-view listings above the files' own folders, shared by the refreshes of WALK_CACHE_MS (a batch of deliveries). */
  private walk = { cache: new Map<string, Promise<FolderListing>>(), since: 0 };

  constructor(options: PlexTargetOptions) {
    const { api, lookup, name = PLEX_TARGET_NAMES.api, afterScan, ...tuning } = options;
    super(name, tuning, () => api.listLibraries());
    if (afterScan) this.afterScan = afterScan;
    this.api = api;
    this.lookup = lookup;
    this.clock = tuning.clock ?? systemClock;
    this.where = api.where;
  }

  /**
   * Finds the items of `files` in the section (sidecars: their videos'; one
   * database query, or one folder listing per folder), refreshes each once
   * and analyzes those whose own file was named (its media changed). An
   * item call that fails fails the delivery, which is retried.
   */
  async refreshItems(files: readonly string[], library: Library): Promise<ItemRefreshReport> {
    if (!this.lookup) return { refreshed: 0, unknown: [...files] };
    const lookup = this.lookup;
    const walk = this.walkCache();
    const located = await this.refetchOnOutage(() => lookup.locate([{ section: library, files }], walk)).catch((error: unknown) => {
      // A failed listing must not be served to the next delivery.
      walk.clear();
      throw error;
    });
    const found = located.found[0] ?? new Map();
    const refs = files.flatMap((file) => {
      const ref = found.get(file);
      return ref ? itemsOfRef(ref) : [];
    });
    const round = await this.refetchOnOutage(() => refreshPlexItems(this.api, refs));
    const [failure] = round.failed;
    if (failure) throw failure.error;
    const fields = { target: this.name, library: library.title, refreshed: round.refreshed.length, analyzed: round.analyzed.length };
    this.logger?.debug(fields, "plex items refreshed");
    return { refreshed: round.refreshed.length, unknown: files.filter((file) => !found.has(file)) };
  }

  /** `GET /butler`, admin-only: proves the token may scan (a shared user's gets 403 here as on a scan). */
  checkAccess(): Promise<string> {
    return this.api.checkAccess();
  }

  /** The last library list Plex gave, or undefined until one fetch succeeded. Never blocks. */
  knownLibraries(): Library[] | undefined {
    return this.libraries.knownLibraries();
  }

  /** Asks Plex now; concurrent callers share one request. */
  refreshLibraries(): Promise<Library[]> {
    return this.libraries.fetchNow();
  }

  /** See LibraryCache.librariesFor. */
  librariesFor(folder: string): Promise<Library[]> {
    return this.libraries.librariesFor(folder);
  }

  async scan(folder: string, library: Library): Promise<void> {
    // 404 means a section that may be gone: the libraries are fetched again before the retry.
    await this.refetchOnOutage(() => this.api.refresh(library.id, folder));
    this.logger?.debug({ target: this.name, folder, library: library.title, section: library.id }, "plex scan requested");
  }

  private walkCache(): Map<string, Promise<FolderListing>> {
    const now = this.clock.now();
    if (now - this.walk.since > WALK_CACHE_MS || this.walk.cache.size > WALK_CACHE_ENTRIES) this.walk = { cache: new Map(), since: now };
    return this.walk.cache;
  }

  /** Fetches the libraries now (a failure is logged, not thrown), then again every TTL until stop(). */
  start(): void {
    this.libraries.start();
  }

  stop(): void {
    this.libraries.stop();
  }
}

export interface PlexTargetDeps {
  clock?: Clock;
  logger?: Logger;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** The after-scan settings (the flat PLEX_* keys, or an entry's with their fallbacks): with them the target has its after-scan capability. */
  afterScan?: { config: AfterScanConfig; env?: NodeJS.ProcessEnv; signal?: AbortSignal };
}

/** The Plex target described by the flat keys (PLEX_LOCAL_URL, PLEX_TOKEN); `deps.afterScan` gives it its after-scan work. */
export function createPlexTarget(
  config: Pick<Config, "PLEX_LOCAL_URL" | "PLEX_TOKEN"> & Partial<Pick<Config, "PLEX_DATABASE_PATH">>,
  deps: PlexTargetDeps = {},
): PlexTarget {
  const settings = { name: PLEX_TARGET_NAMES.api, url: config.PLEX_LOCAL_URL, token: config.PLEX_TOKEN };
  return createNamedPlexTarget({ ...settings, databasePath: config.PLEX_DATABASE_PATH ?? "" }, deps);
}

export interface PlexTargetSettings {
  name: string;
  url: string;
  token: string;
  /** Config keys of the URL and the token, for messages (`TARGETS[2].URL`). */
  urlKey?: string;
  tokenKey?: string;
  /** The library database, read-only, for finding items to refresh; "" asks the API. */
  databasePath?: string;
}

/** A Plex target through the API, with its own name (a TARGETS entry of TYPE "plex"). */
export function createNamedPlexTarget(settings: PlexTargetSettings, deps: PlexTargetDeps = {}): PlexTarget {
  const api = new PlexApiClient({
    baseUrl: settings.url,
    token: settings.token,
    urlKey: settings.urlKey,
    tokenKey: settings.tokenKey,
    timeoutMs: deps.timeoutMs,
    fetch: deps.fetch,
  });
  const lookup = createPlexLookup({ databasePath: settings.databasePath ?? "", api });
  const afterScan = deps.afterScan && afterScanOf(settings, deps);
  return new PlexTarget({ api, lookup, name: settings.name, clock: deps.clock, logger: deps.logger, ...(afterScan ? { afterScan } : {}) });
}

/** The after-scan capability of a Plex target, over its own server and keys. */
export function afterScanOf(
  settings: Pick<PlexTargetSettings, "urlKey" | "tokenKey">,
  deps: PlexTargetDeps,
): AfterScanCapability | undefined {
  if (!deps.afterScan) return undefined;
  const { config, env = {}, signal } = deps.afterScan;
  const { urlKey, tokenKey } = settings;
  return createPlexAfterScan(config, {
    env,
    fetch: deps.fetch,
    timeoutMs: deps.timeoutMs,
    urlKey,
    tokenKey,
    ...(signal ? { signal } : {}),
  });
}

/**
 * A TARGETS entry of TYPE "plex": always the API method (the scanner is for
 * the flat PLEX_* keys). Its after-scan settings are its own fields, each
 * falling back to the flat PLEX_* key (after-scan-config.ts).
 */
export const createPlexEntryTarget: TargetFactory = ({ entry, at, config }, deps) =>
  createNamedPlexTarget(
    {
      name: entry.NAME,
      url: entry.URL,
      token: entry.TOKEN,
      urlKey: `${at}.URL`,
      tokenKey: `${at}.TOKEN`,
      databasePath: (entry as PlexEntry).DATABASE_PATH ?? "",
    },
    config
      ? { ...deps, afterScan: { config: afterScanConfigOfEntry(config, entry as PlexEntry), env: deps.env, signal: deps.signal } }
      : deps,
  );
