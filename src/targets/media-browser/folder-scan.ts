import { TargetAuthError, type Library } from "../../domain.js";
import { NoAnswerError } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { namedMessageOf } from "../../lib/errors.js";
import type { Logger } from "../../lib/logger.js";
import { createFolderLookup, type FolderItem, type FolderItemApi, type FolderLookup } from "./folder-items.js";
import type { MediaUpdate, UpdateType } from "./payloads.js";

/** What a scan asks of a Jellyfin or Emby client. */
export interface FolderScanApi extends FolderItemApi {
  /** `POST /Items/{id}/Refresh` of a folder item; false when the server no longer knows the item. */
  refreshFolder(id: string, path: string): Promise<boolean>;
  mediaUpdated(updates: readonly MediaUpdate[]): Promise<void>;
}

export interface FolderScanOptions {
  /** The target's name and server kind, for logs. */
  target: string;
  server: "Jellyfin" | "Emby";
  /** What the Media/Updated fallback calls each path (Jellyfin ignores it; Emby reads it). */
  updateType: UpdateType;
  clock: Clock;
  logger?: Logger;
}

/** How a scan reached the server: a folder item's refresh, or Media/Updated (after the server's LibraryMonitorDelay). */
export type FolderScanWay = { kind: "refreshed"; item: string; library: boolean } | { kind: "updated"; paths: number };

/** A scan's way in a word or two, for the targets' debug lines. */
export function describeScanWay(way: FolderScanWay): string {
  return way.kind === "refreshed" ? `refreshed ${way.item}` : `reported ${way.paths} paths`;
}

/** How long scans go through Media/Updated after a refused refresh, before one is tried again (the key's rights may change). */
export const REFUSED_RETRY_MS = 10 * 60_000;

/**
 * A scan on Jellyfin or Emby that skips the server's LibraryMonitorDelay,
 * as autopulse's does: the nearest folder item the server knows at or above
 * the scan's folder (folder-items.ts) gets `POST /Items/{id}/Refresh`, which
 * the server queues at once and answers by validating that folder's children
 * (new, changed and missing files; the library's own item: the whole
 * library). `POST /Library/Media/Updated` is the fallback: when the lookup
 * fails, when the server no longer knows the item, and from the first
 * refusal of a refresh on (the key may report changes but not refresh
 * items: remembered for REFUSED_RETRY_MS, then tried again; logged as a
 * warning once).
 */
export class FolderScan {
  /** When refreshes were last refused; they are tried again REFUSED_RETRY_MS later. */
  private refusedAt: number | undefined;
  private readonly lookup: FolderLookup;

  constructor(
    private readonly api: FolderScanApi,
    private readonly options: FolderScanOptions,
  ) {
    this.lookup = createFolderLookup(api, options.clock);
  }

  /** Whether refreshes were refused and scans go through Media/Updated for now. */
  get refreshRefused(): boolean {
    return this.refusedAt !== undefined && this.options.clock.now() - this.refusedAt < REFUSED_RETRY_MS;
  }

  /** Scans `folder` (in `library`); `paths` are what Media/Updated names if it comes to that (the named files, or the folder). */
  async scan(folder: string, library: Library, paths: readonly string[]): Promise<FolderScanWay> {
    if (!this.refreshRefused) {
      const refreshed = await this.refresh(folder, library, paths.length === 1 && paths[0] === folder);
      if (refreshed) return refreshed;
    }
    await this.api.mediaUpdated(paths.map((path) => ({ path, updateType: this.options.updateType })));
    return { kind: "updated", paths: paths.length };
  }

  /**
   * `folderOnly`: the request named only the folder, which may be gone (a
   * series or movie deleted in the *arr app). A refresh validates an item's
   * children, never the item itself: a vanished folder leaves only through
   * its parent's refresh. So when a top folder's own item is refreshed
   * (a series, a movie's folder: what a delete removes whole), Media/Updated
   * names it too, and the server's walk after its wait climbs to a parent
   * that still exists. A season folder is not reported: a scan that carries
   * a deletion comes folder-only (queue/deliveries.ts), and its season is
   * almost always still there.
   */
  private async refresh(folder: string, library: Library, folderOnly: boolean): Promise<FolderScanWay | undefined> {
    const { target, server, logger } = this.options;
    let item: FolderItem;
    try {
      item = await this.lookup.nearest(folder, library);
    } catch (error) {
      // No answer at all: Media/Updated would wait out the same time-out.
      if (error instanceof NoAnswerError) throw error;
      logger?.warn({ target, folder, err: namedMessageOf(error) }, `could not find the ${server} item of the folder; reporting it instead`);
      return undefined;
    }
    try {
      if (await this.api.refreshFolder(item.id, item.path)) {
        if (this.refusedAt !== undefined) {
          this.refusedAt = undefined;
          logger?.info({ target }, `${server} refreshes items with this key again; scans skip the LibraryMonitorDelay`);
        }
        if (folderOnly && item.itself && item.top) await this.api.mediaUpdated([{ path: folder, updateType: this.options.updateType }]);
        return { kind: "refreshed", item: item.path, library: item.library };
      }
      this.lookup.forget(library.id);
      logger?.info({ target, folder, item: item.path }, `${server} no longer knows the folder's item; reporting the folder instead`);
      return undefined;
    } catch (error) {
      if (!(error instanceof TargetAuthError)) throw error;
      const first = this.refusedAt === undefined;
      this.refusedAt = this.options.clock.now();
      logger?.[first ? "warn" : "debug"](
        { target, err: namedMessageOf(error) },
        `${server} refused to refresh items with this key (an administrator's key can); scans go through Media/Updated, after the server's LibraryMonitorDelay, and a refresh is tried again in 10 minutes`,
      );
      return undefined;
    }
  }
}
