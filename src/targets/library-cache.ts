import type { Library } from "../domain.js";
import { systemClock, type Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import { SingleFlight } from "../lib/single-flight.js";
import { findLibrariesFor } from "../paths/index.js";
import { namedMessageOf } from "../lib/errors.js";

export interface LibraryCacheOptions {
  /** Asks the media server for its libraries; throws a Target*Error when it cannot. */
  fetch: () => Promise<Library[]>;
  /** The target's name, for log lines. */
  name: string;
  clock?: Clock;
  logger?: Logger;
  /** How long a fetched list is trusted. Defaults to 5 minutes. */
  ttlMs?: number;
  /** A folder no library holds refetches the list at most this often. Defaults to 30 s. */
  missRefetchMs?: number;
  /**
   * A list known before any fetch (a target whose libraries are fixed). It is
   * stale from the start: the first listLibraries() still fetches.
   */
  initial?: Library[];
}

/** The knobs a target passes through to its cache. */
export type LibraryCacheTuning = Pick<LibraryCacheOptions, "clock" | "logger" | "ttlMs" | "missRefetchMs">;

export const DEFAULT_LIBRARY_TTL_MS = 5 * 60_000;
/** A path in no library refetches the list at most this often, so bad requests cannot flood the media server. */
export const DEFAULT_MISS_REFETCH_MS = 30_000;

/**
 * One target's library list, shared by delivery and by the HTTP side that
 * refuses paths no library holds. The list is refetched when older than the
 * TTL, after markStale() (a scan failed in a way that hints at a stale
 * library), and when a folder matches no library (rate-limited, in case the
 * library was added since). Concurrent fetches share one request.
 */
export class LibraryCache {
  private readonly fetcher: () => Promise<Library[]>;
  private readonly name: string;
  private readonly clock: Clock;
  private readonly logger: Logger | undefined;
  private readonly ttlMs: number;
  private readonly missRefetchMs: number;
  private cached: { libraries: Library[]; fetchedAt: number } | undefined;
  private stale = false;
  private lastAttemptAt = -Infinity;
  private readonly fetching = new SingleFlight<Library[]>();
  private timer: unknown;

  constructor(options: LibraryCacheOptions) {
    this.fetcher = options.fetch;
    this.name = options.name;
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger;
    this.ttlMs = options.ttlMs ?? DEFAULT_LIBRARY_TTL_MS;
    this.missRefetchMs = options.missRefetchMs ?? DEFAULT_MISS_REFETCH_MS;
    if (options.initial) this.cached = { libraries: options.initial, fetchedAt: -Infinity };
  }

  /** The last list the server gave, or undefined until one fetch succeeded. Never blocks. */
  knownLibraries(): Library[] | undefined {
    return this.cached?.libraries;
  }

  /** The cached list while it is fresh; otherwise asks the server (throws a Target*Error when it cannot). */
  async listLibraries(): Promise<Library[]> {
    if (this.cached && !this.stale && this.clock.now() - this.cached.fetchedAt < this.ttlMs) return this.cached.libraries;
    return this.fetchNow();
  }

  /** Asks the server now; concurrent callers share one request. Throws what the fetch threw. */
  fetchNow(): Promise<Library[]> {
    return this.fetching.run(() => {
      this.lastAttemptAt = this.clock.now();
      return this.fetchOnce();
    });
  }

  /**
   * Refetches unless a fetch started less than the miss interval ago; never
   * throws (a failure is logged). For callers that found no library for a
   * path: the HTTP side's LibraryCatalog, delivery's librariesFor().
   */
  async refreshLibraries(): Promise<void> {
    if (!this.fetching.running && this.clock.now() - this.lastAttemptAt < this.missRefetchMs) return;
    await this.fetchNow().catch((error: unknown) => this.warn(error, "could not refetch the libraries"));
  }

  /**
   * The libraries holding `folder`, longest location first. When none does,
   * the list is refetched (rate-limited). When the server cannot be asked, the
   * answer comes from the last known list; with none, the fetch error is thrown.
   */
  async librariesFor(folder: string): Promise<Library[]> {
    let libraries: Library[];
    try {
      libraries = await this.listLibraries();
    } catch (error) {
      if (!this.cached) throw error;
      this.warn(error, "could not refetch the libraries; using the last list", folder);
      return findLibrariesFor(folder, this.cached.libraries);
    }
    const found = findLibrariesFor(folder, libraries);
    if (found.length > 0) return found;
    await this.refreshLibraries();
    return findLibrariesFor(folder, this.cached?.libraries ?? libraries);
  }

  /** The next listLibraries() asks the server (a scan failed in a way that hints at a removed library). */
  markStale(): void {
    this.stale = true;
  }

  /** Fetches now (a failure is logged, not thrown), then again every TTL until stop(). */
  start(): void {
    this.stop();
    const tick = (): void => {
      this.fetchNow().catch((error: unknown) => this.warn(error, "could not fetch the libraries"));
      this.timer = this.clock.setTimeout(tick, this.ttlMs);
    };
    tick();
  }

  stop(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async fetchOnce(): Promise<Library[]> {
    const libraries = await this.fetcher();
    this.cached = { libraries, fetchedAt: this.clock.now() };
    this.stale = false;
    this.logger?.debug({ target: this.name, count: libraries.length }, "libraries fetched");
    return libraries;
  }

  private warn(error: unknown, message: string, folder?: string): void {
    const err = namedMessageOf(error);
    this.logger?.warn({ target: this.name, ...(folder === undefined ? {} : { folder }), err }, message);
  }
}
