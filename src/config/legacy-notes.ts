/**
 * What each ignored plex_autoscan key (schema.ts LEGACY_KEYS) says in its
 * warning: what replaces it, or what stops working. A key without a note
 * gets the plain "not used by scanarr; ignored".
 */
export const LEGACY_NOTES: Readonly<Record<string, string>> = {
  SERVER_USE_SQLITE:
    "ignored: scanarr's queue is always a SQLite database (data/scanarr.db) that survives restarts and merges requests per folder; remove the key",
  PLEX_CHECK_BEFORE_SCAN:
    "ignored: built in; while a media server does not answer, its scans wait in the queue and are retried with backoff (/health says degraded)",
  PLEX_WAIT_FOR_EXTERNAL_SCANNERS:
    'ignored: with PLEX_SCAN_METHOD "api" Plex orders its own scans, and the scanner method runs one Plex Media Scanner at a time, so there is nothing to wait for',
  PLEX_FIX_MISMATCHED:
    "not supported by scanarr, so it is ignored: plex_autoscan re-matched items through Plex's legacy agents (com.plexapp.agents.*), which current Plex libraries no longer use; fix a wrong match in Plex itself (Fix Match)",
  PLEX_FIX_MISMATCHED_LANG: "not supported by scanarr, so it is ignored (it only served PLEX_FIX_MISMATCHED)",
  PLEX_SECTION_PATH_MAPPINGS:
    "ignored: the library of each folder is found from the media server's own list of library folders, the longest match first; `scanarr map <path>` shows which library a path lands in",
  PLEX_SECTION_PATH_MAPPINGS_WITH_API:
    "ignored: the library folders always come from Plex's API (from its database only for the scanner method and drive monitoring); remove the key",
  "RCLONE.BINARY":
    "not needed, so it is ignored: scanarr decodes RCLONE.CRYPT_MAPPINGS names itself, with the passwords in RCLONE.CONFIG, instead of running rclone cryptdecode",
  "RCLONE.RC_CACHE_EXPIRE":
    "ignored: plex_autoscan renamed it RC_CACHE_REFRESH in 2019; until its keys (ENABLED, RC_URL, FILE_EXISTS_TO_REMOTE_MAPPINGS) move to RCLONE.RC_CACHE_REFRESH, rclone's directory cache is not refreshed before file checks",
  "CLOUD.DISABLE_DISK_FILE_SIZE_CHECK":
    "ignored: scanarr skips a Drive file Plex already has (a live media_parts row) without comparing sizes, which is what this key turned on; remove the key",
};
