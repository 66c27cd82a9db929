import type { AfterScanCapability, ItemRefreshReport, Library } from "../../domain.js";
import { CachedTarget } from "../cached-target.js";
import { refreshMediaBrowserItems } from "../media-browser/items.js";
import type { LibraryCacheTuning } from "../library-cache.js";
import type { TargetFactory } from "../factory.js";
import { EmbyApiClient } from "./api.js";
import { systemClock } from "../../lib/clock.js";
import { describeScanWay, FolderScan } from "../media-browser/folder-scan.js";
import { createMediaBrowserAfterScan } from "../media-browser/after-scan.js";
import { confirmSettingsOf, type ConfirmEntry } from "../media-browser/confirm-config.js";

export type EmbyApi = Pick<
  EmbyApiClient,
  | "where"
  | "listLibraries"
  | "mediaUpdated"
  | "listItems"
  | "refreshItem"
  | "findItemByPath"
  | "checkScanAccess"
  | "listLibraryStates"
  | "listRecentItems"
  | "refreshFolder"
>;

export interface EmbyTargetOptions extends LibraryCacheTuning {
  name: string;
  api: EmbyApi;
  /** Its after-scan capability (confirmation), from its entry's settings. */
  afterScan?: AfterScanCapability;
}

/**
 * Emby. A scan refreshes the nearest folder item Emby knows at or above the
 * folder (`GET /Items?Path=…`, then `POST /Items/{id}/Refresh?Recursive=true`:
 * at once, no LibraryMonitorDelay; media-browser/folder-scan.ts). The
 * fallback reports the request's files, else the folder, in one `POST
 * /Library/Media/Updated` with UpdateType "Created" (what autoscan sends).
 */
export class EmbyTarget extends CachedTarget {
  /** One call covers the folder, whatever library holds it. */
  readonly scansPerLibrary = false;
  readonly where: string;
  readonly afterScan?: AfterScanCapability;
  private readonly api: EmbyApi;
  private readonly folders: FolderScan;

  constructor(options: EmbyTargetOptions) {
    const { name, api, afterScan, ...tuning } = options;
    super(name, tuning, () => api.listLibraries());
    if (afterScan) this.afterScan = afterScan;
    this.api = api;
    this.where = api.where;
    const clock = tuning.clock ?? systemClock;
    this.folders = new FolderScan(api, { target: name, server: "Emby", updateType: "Created", clock, logger: this.logger });
  }

  /** The key may report changes: an empty Media/Updated, the fallback of a scan. */
  async checkAccess(): Promise<string> {
    await this.recorded(() => this.api.checkScanAccess());
    return "API key accepted for scans; scans refresh the nearest folder Emby knows at once (a key that may not refresh items falls back to reporting changes, which Emby looks at after its LibraryMonitorDelay)";
  }

  /** Finds the items of `files` (sidecars: their videos') and sends each one `POST /Items/{id}/Refresh`. */
  refreshItems(files: readonly string[], library: Library): Promise<ItemRefreshReport> {
    return this.refetchOnOutage(() => refreshMediaBrowserItems(this.api, files, library));
  }

  async scan(folder: string, library: Library, files?: readonly string[]): Promise<void> {
    const paths = files && files.length > 0 ? files : [folder];
    const way = describeScanWay(await this.refetchOnOutage(() => this.folders.scan(folder, library, paths)));
    this.logger?.debug({ target: this.name, folder, library: library.title, way }, "emby scan requested");
  }
}

/** A TARGETS entry of TYPE "emby". */
export const createEmbyTarget: TargetFactory = ({ entry, at }, { clock, logger, fetch, timeoutMs }) => {
  const api = new EmbyApiClient({ baseUrl: entry.URL, token: entry.TOKEN, urlKey: `${at}.URL`, tokenKey: `${at}.TOKEN`, timeoutMs, fetch });
  const afterScan = createMediaBrowserAfterScan(api, confirmSettingsOf(entry as ConfirmEntry, "Emby"), clock ?? systemClock);
  return new EmbyTarget({ name: entry.NAME, api, clock, logger, afterScan });
};
