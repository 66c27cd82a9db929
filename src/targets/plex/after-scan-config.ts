import type { Config } from "../../config/types.js";
import type { PlexEntry } from "./config.js";
import type { AfterScanConfig } from "./after-scan.js";

/**
 * The after-scan settings of a TARGETS entry of TYPE "plex": its own URL,
 * token and database (none unless DATABASE_PATH is given: its files are then
 * looked up through its API), and for every field it leaves unset the PLEX_*
 * key of the same name. Poll timing and the scanner keys stay the flat ones;
 * an entry always uses the API method.
 */
export function afterScanConfigOfEntry(config: Config, entry: PlexEntry): AfterScanConfig {
  return {
    ...config,
    PLEX_LOCAL_URL: entry.URL,
    PLEX_TOKEN: entry.TOKEN,
    PLEX_DATABASE_PATH: entry.DATABASE_PATH ?? "",
    PLEX_SCAN_METHOD: "api",
    PLEX_CONFIRM_SCANS: entry.CONFIRM_SCANS ?? config.PLEX_CONFIRM_SCANS,
    PLEX_ANALYZE_TYPE: entry.ANALYZE_TYPE ?? config.PLEX_ANALYZE_TYPE,
    PLEX_ANALYZE_DIRECTORY: entry.ANALYZE_DIRECTORY ?? config.PLEX_ANALYZE_DIRECTORY,
    PLEX_EMPTY_TRASH: entry.EMPTY_TRASH ?? config.PLEX_EMPTY_TRASH,
    PLEX_EMPTY_TRASH_MAX_FILES: entry.EMPTY_TRASH_MAX_FILES ?? config.PLEX_EMPTY_TRASH_MAX_FILES,
    PLEX_EMPTY_TRASH_ZERO_DELETED: entry.EMPTY_TRASH_ZERO_DELETED ?? config.PLEX_EMPTY_TRASH_ZERO_DELETED,
  };
}
