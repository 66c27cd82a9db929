import { TargetAuthError, type AfterScanCapability, type ItemRefreshReport, type Library } from "../../domain.js";
import { CachedTarget } from "../cached-target.js";
import { refreshMediaBrowserItems } from "../media-browser/items.js";
import { NoAnswerError } from "../../http/errors.js";
import type { LibraryCacheTuning } from "../library-cache.js";
import type { TargetFactory } from "../factory.js";
import { JellyfinApiClient } from "./api.js";
import { namedMessageOf } from "../../lib/errors.js";
import { systemClock } from "../../lib/clock.js";
import { describeScanWay, FolderScan } from "../media-browser/folder-scan.js";
import { createMediaBrowserAfterScan } from "../media-browser/after-scan.js";
import { confirmSettingsOf, type ConfirmEntry } from "../media-browser/confirm-config.js";

export type JellyfinApi = Pick<
  JellyfinApiClient,
  | "where"
  | "listLibraries"
  | "mediaUpdated"
  | "listItems"
  | "refreshItem"
  | "hasScanPath"
  | "scanPath"
  | "checkScanAccess"
  | "listLibraryStates"
  | "listRecentItems"
  | "listFolderItems"
  | "refreshFolder"
>;

export interface JellyfinTargetOptions extends LibraryCacheTuning {
  name: string;
  api: JellyfinApi;
  /** Its after-scan capability (confirmation), from its entry's settings. */
  afterScan?: AfterScanCapability;
}

/** Whether the targeted-scans plugin answers; "unknown" until probed, and again after any failure. */
type PluginState = "unknown" | "present" | "absent";

/**
 * Jellyfin. Where the targeted-scans plugin is installed, each of the
 * request's files (else the folder) goes to its `POST /Library/ScanPath`
 * first (instant, no 60 s LibraryMonitorDelay). Without the plugin, or for
 * paths it cannot place, the nearest folder item Jellyfin knows gets
 * `POST /Items/{id}/Refresh` (also instant; media-browser/folder-scan.ts),
 * and `POST /Library/Media/Updated` with the paths is the fallback.
 */
export class JellyfinTarget extends CachedTarget {
  /** One call covers the folder, whatever library holds it. */
  readonly scansPerLibrary = false;
  readonly where: string;
  readonly afterScan?: AfterScanCapability;
  private readonly api: JellyfinApi;
  private readonly folders: FolderScan;
  private plugin: PluginState = "unknown";

  constructor(options: JellyfinTargetOptions) {
    const { name, api, afterScan, ...tuning } = options;
    super(name, tuning, () => api.listLibraries());
    if (afterScan) this.afterScan = afterScan;
    this.api = api;
    this.where = api.where;
    const clock = tuning.clock ?? systemClock;
    this.folders = new FolderScan(api, { target: name, server: "Jellyfin", updateType: "Modified", clock, logger: this.logger });
  }

  /** What is known about the targeted-scans plugin (for logs, /health and tests). */
  pluginState(): PluginState {
    return this.plugin;
  }

  /** The key may report changes (an empty Media/Updated, the fallback of a scan), and how scans reach the server. */
  async checkAccess(): Promise<string> {
    await this.recorded(() => this.api.checkScanAccess());
    const plugin = (await this.pluginPresent())
      ? "the targeted-scans plugin answers (its ScanPath comes first)"
      : "no targeted-scans plugin";
    return `API key accepted for scans; ${plugin}; scans refresh the nearest folder Jellyfin knows at once (an administrator's key; other keys fall back to reporting changes, which Jellyfin looks at after its LibraryMonitorDelay, 60 s by default)`;
  }

  /** Finds the items of `files` (sidecars: their videos') and sends each one `POST /Items/{id}/Refresh`. */
  refreshItems(files: readonly string[], library: Library): Promise<ItemRefreshReport> {
    return this.refetchOnOutage(() => refreshMediaBrowserItems(this.api, files, library));
  }

  async scan(folder: string, library: Library, files?: readonly string[]): Promise<void> {
    const paths = files && files.length > 0 ? [...files] : [folder];
    let left = paths;
    let way: string = "plugin";
    try {
      await this.refetchOnOutage(async () => {
        if (await this.pluginPresent()) left = await this.scanThroughPlugin(paths);
        if (left.length > 0) way = describeScanWay(await this.folders.scan(folder, library, left));
      });
    } catch (error) {
      // The server may come back with the plugin installed or removed: probe again next time.
      this.plugin = "unknown";
      throw error;
    }
    const fields = { target: this.name, folder, library: library.title, plugin: paths.length - left.length, way };
    this.logger?.debug(fields, "jellyfin scan requested");
  }

  private async pluginPresent(): Promise<boolean> {
    if (this.plugin !== "unknown") return this.plugin === "present";
    try {
      this.plugin = (await this.api.hasScanPath()) ? "present" : "absent";
      this.logger?.info({ target: this.name, plugin: this.plugin }, "jellyfin targeted-scans plugin probed");
    } catch (error) {
      // A server that refuses us or does not answer would do the same to Media/Updated: fail now, probe next time.
      if (error instanceof TargetAuthError || error instanceof NoAnswerError) throw error;
      this.logger?.debug({ target: this.name, err: namedMessageOf(error) }, "could not probe the jellyfin targeted-scans plugin");
    }
    return this.plugin === "present";
  }

  /** Sends each path to ScanPath; returns the paths left for the folder refresh. */
  private async scanThroughPlugin(paths: string[]): Promise<string[]> {
    const left: string[] = [];
    for (const [i, path] of paths.entries()) {
      try {
        const result = await this.api.scanPath(path);
        if (result.kind === "not-placed") left.push(path);
      } catch (error) {
        // Refused, or no answer at all: Media/Updated would fare the same (and wait out the same time-out).
        if (error instanceof TargetAuthError || error instanceof NoAnswerError) throw error;
        this.plugin = "unknown";
        this.logger?.warn(
          { target: this.name, path, err: namedMessageOf(error) },
          "targeted-scans plugin failed; refreshing the folder instead",
        );
        return [...left, ...paths.slice(i)];
      }
    }
    return left;
  }
}

/** A TARGETS entry of TYPE "jellyfin". */
export const createJellyfinTarget: TargetFactory = ({ entry, at }, { clock, logger, fetch, timeoutMs }) => {
  const api = new JellyfinApiClient({
    baseUrl: entry.URL,
    token: entry.TOKEN,
    urlKey: `${at}.URL`,
    tokenKey: `${at}.TOKEN`,
    timeoutMs,
    fetch,
  });
  const afterScan = createMediaBrowserAfterScan(api, confirmSettingsOf(entry as ConfirmEntry, "Jellyfin"), clock ?? systemClock);
  return new JellyfinTarget({ name: entry.NAME, api, clock, logger, afterScan });
};
