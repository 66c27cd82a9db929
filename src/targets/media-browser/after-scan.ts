import type { AfterScanCapability, AfterScanSettings, LibraryScanState } from "../../domain.js";
import type { Clock } from "../../lib/clock.js";
import { createFileLookup, type FileLookupApi } from "./file-lookup.js";

/** What the after-scan work asks of a Jellyfin or Emby client. */
export interface AfterScanApi extends FileLookupApi {
  listLibraryStates(): Promise<LibraryScanState[]>;
  refreshItem(id: string): Promise<void>;
}

/**
 * The after-scan capability of a Jellyfin or Emby target: confirmation
 * through the server's own scanning signals (scan-state.ts) and its item
 * lookup (file-lookup.ts), and the refresh of the items a request asked
 * for once they are confirmed. These servers have no analyze call the
 * worker would send, and no trash to empty: deleted files leave the library
 * when it is scanned.
 */
export function createMediaBrowserAfterScan(api: AfterScanApi, settings: AfterScanSettings, clock: Clock): AfterScanCapability {
  const findFiles = createFileLookup(api, clock);
  return {
    settings,
    listLibraryStates: () => api.listLibraryStates(),
    findFiles,
    analyzeCalls: () => [],
    refreshCalls(items) {
      const ids = [...new Set(items.map((item) => item.ratingKey))];
      return ids.map((id) => ({ kind: "refreshed" as const, keys: [id], run: () => api.refreshItem(id) }));
    },
    countTrash: async () => 0,
    emptyTrash: async () => {},
  };
}
