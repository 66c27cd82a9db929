import type { Config } from "../../config/types.js";
import { TargetUnavailableError, type Library, type Target } from "../../domain.js";
import { systemClock, type Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/logger.js";
import { findLibrariesFor } from "../../paths/index.js";
import { ContactRecorder, type Contact } from "../contact.js";
import { PlexApiClient } from "./api.js";

/** The two calls the target makes; PlexApiClient has them, tests may pass less. */
export type PlexApi = Pick<PlexApiClient, "listLibraries" | "refresh">;

export interface PlexTargetOptions {
  api: PlexApi;
  clock?: Clock;
  logger?: Logger;
  /** How long a fetched library list is trusted. Defaults to 5 minutes. */
  ttlMs?: number;
  /** A folder no library holds refetches the list at most this often. Defaults to 30 s. */
  missRefetchMs?: number;
}

const DEFAULT_TTL_MS = 5 * 60_000;
const DEFAULT_MISS_REFETCH_MS = 30_000;

/**
 * Plex through its HTTP API (`PLEX_SCAN_METHOD: "api"`). The library list is
 * cached, refetched when it is older than the TTL, when a folder matches no
 * library (libraries added in Plex since), and after a scan failed in a way
 * that hints at a stale section id.
 */
export class PlexTarget implements Target {
  readonly name = "plex";
  private readonly api: PlexApi;
  private readonly clock: Clock;
  private readonly logger: Logger | undefined;
  private readonly ttlMs: number;
  private readonly missRefetchMs: number;
  private cached: { libraries: Library[]; fetchedAt: number } | undefined;
  private stale = false;
  private inflight: Promise<Library[]> | undefined;
  private timer: unknown;
  private readonly contactRecorder: ContactRecorder;

  constructor(options: PlexTargetOptions) {
    this.api = options.api;
    this.clock = options.clock ?? systemClock;
    this.contactRecorder = new ContactRecorder(this.clock);
    this.logger = options.logger;
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.missRefetchMs = options.missRefetchMs ?? DEFAULT_MISS_REFETCH_MS;
  }

  /** What the last call to Plex showed (for /health): "unknown" until Plex answered or failed once. */
  contact(): Contact {
    return this.contactRecorder.current();
  }

  /** The last library list Plex gave, or undefined until one fetch succeeded. Never blocks. */
  knownLibraries(): Library[] | undefined {
    return this.cached?.libraries;
  }

  /** The cached list while it is fresh; otherwise asks Plex (throws a Target*Error when it cannot). */
  async listLibraries(): Promise<Library[]> {
    if (this.cached && !this.stale && this.clock.now() - this.cached.fetchedAt < this.ttlMs) {
      return this.cached.libraries;
    }
    return this.refreshLibraries();
  }

  /** Asks Plex now; concurrent callers share one request. */
  refreshLibraries(): Promise<Library[]> {
    this.inflight ??= this.fetchLibraries().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  /**
   * The libraries holding `folder`, longest location first. When none does,
   * the list is refetched (rate-limited) in case the library was added since.
   * If Plex cannot be asked, the answer comes from the last known list.
   */
  async librariesFor(folder: string): Promise<Library[]> {
    let libraries: Library[];
    try {
      libraries = await this.listLibraries();
    } catch (error) {
      if (!this.cached) throw error;
      this.logger?.warn({ folder, err: describe(error) }, "could not refetch the Plex libraries; using the last list");
      return findLibrariesFor(folder, this.cached.libraries);
    }
    const found = findLibrariesFor(folder, libraries);
    const fetchedAt = this.cached?.fetchedAt ?? -Infinity;
    if (found.length > 0 || this.clock.now() - fetchedAt < this.missRefetchMs) return found;
    try {
      return findLibrariesFor(folder, await this.refreshLibraries());
    } catch (error) {
      this.logger?.warn({ folder, err: describe(error) }, "could not refetch the Plex libraries; using the last list");
      return found;
    }
  }

  async scan(folder: string, library: Library): Promise<void> {
    try {
      await this.api.refresh(library.id, folder);
      this.contactRecorder.succeeded();
    } catch (error) {
      this.contactRecorder.failed(error);
      // 404 means a section that may be gone: look again before the retry.
      if (error instanceof TargetUnavailableError) this.stale = true;
      throw error;
    }
    this.logger?.debug({ folder, library: library.title, section: library.id }, "plex scan requested");
  }

  /** Fetches now (a failure is logged, not thrown), then again every TTL until stop(). */
  start(): void {
    this.stop();
    const tick = (): void => {
      this.refreshLibraries().catch((error: unknown) => {
        this.logger?.warn({ err: describe(error) }, "could not fetch the Plex libraries");
      });
      this.timer = this.clock.setTimeout(tick, this.ttlMs);
    };
    tick();
  }

  stop(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async fetchLibraries(): Promise<Library[]> {
    let libraries: Library[];
    try {
      libraries = await this.api.listLibraries();
      this.contactRecorder.succeeded();
    } catch (error) {
      this.contactRecorder.failed(error);
      throw error;
    }
    this.cached = { libraries, fetchedAt: this.clock.now() };
    this.stale = false;
    this.logger?.debug({ count: libraries.length }, "plex libraries fetched");
    return libraries;
  }
}

/** The Plex target described by the config (PLEX_LOCAL_URL, PLEX_TOKEN). */
export function createPlexTarget(
  config: Pick<Config, "PLEX_LOCAL_URL" | "PLEX_TOKEN">,
  deps: { clock?: Clock; logger?: Logger; fetch?: typeof fetch; timeoutMs?: number } = {},
): PlexTarget {
  const api = new PlexApiClient({
    baseUrl: config.PLEX_LOCAL_URL,
    token: config.PLEX_TOKEN,
    timeoutMs: deps.timeoutMs,
    fetch: deps.fetch,
  });
  return new PlexTarget({ api, clock: deps.clock, logger: deps.logger });
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
