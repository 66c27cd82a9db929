import { TargetAuthError, type AfterScanCapability, type ItemRefreshReport, type Library } from "../../domain.js";
import { CachedTarget } from "../cached-target.js";
import { refreshMediaBrowserItems } from "../media-browser/items.js";
import { NoAnswerError } from "../../http/errors.js";
import type { LibraryCacheTuning } from "../library-cache.js";
import type { TargetFactory } from "../factory.js";
import { JellyfinApiClient } from "./api.js";
import { namedMessageOf } from "../../lib/errors.js";
import { systemClock } from "../../lib/clock.js";
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
 * Jellyfin. A scan reports the request's files when it named some (Jellyfin
 * then refreshes just those items), else the folder. Where the targeted-scans
 * plugin is installed, each path goes to its `POST /Library/ScanPath` first
 * (instant, no 60 s LibraryMonitorDelay); paths the plugin cannot place, and
 * every path when the plugin fails, go to `POST /Library/Media/Updated`.
 */
export class JellyfinTarget extends CachedTarget {
  /** One call covers the folder, whatever library holds it. */
  readonly scansPerLibrary = false;
  readonly where: string;
  readonly afterScan?: AfterScanCapability;
  private readonly api: JellyfinApi;
  private plugin: PluginState = "unknown";

  constructor(options: JellyfinTargetOptions) {
    const { name, api, afterScan, ...tuning } = options;
    super(name, tuning, () => api.listLibraries());
    if (afterScan) this.afterScan = afterScan;
    this.api = api;
    this.where = api.where;
  }

  /** What is known about the targeted-scans plugin (for logs, /health and tests). */
  pluginState(): PluginState {
    return this.plugin;
  }

  /** The key may report changes (an empty Media/Updated, the call a scan makes), and whether scans can be instant. */
  async checkAccess(): Promise<string> {
    await this.recorded(() => this.api.checkScanAccess());
    const plugin = (await this.pluginPresent())
      ? "the targeted-scans plugin answers (scans start at once)"
      : "no targeted-scans plugin (Jellyfin waits out its LibraryMonitorDelay, 60 s by default, before it looks)";
    return `API key accepted for scans; ${plugin}`;
  }

  /** Finds the items of `files` (sidecars: their videos') and sends each one `POST /Items/{id}/Refresh`. */
  refreshItems(files: readonly string[], library: Library): Promise<ItemRefreshReport> {
    return this.refetchOnOutage(() => refreshMediaBrowserItems(this.api, files, library));
  }

  async scan(folder: string, library: Library, files?: readonly string[]): Promise<void> {
    const paths = files && files.length > 0 ? [...files] : [folder];
    let left = paths;
    try {
      await this.refetchOnOutage(async () => {
        if (await this.pluginPresent()) left = await this.scanThroughPlugin(paths);
        if (left.length > 0) await this.api.mediaUpdated(left.map((path) => ({ path, updateType: "Modified" })));
      });
    } catch (error) {
      // The server may come back with the plugin installed or removed: probe again next time.
      this.plugin = "unknown";
      throw error;
    }
    const fields = { target: this.name, folder, library: library.title, plugin: paths.length - left.length, updated: left.length };
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

  /** Sends each path to ScanPath; returns the paths left for Media/Updated. */
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
          "targeted-scans plugin failed; falling back to Media/Updated",
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
