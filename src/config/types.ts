import type { TargetType } from "../domain.js";

/** Filters applied to drive changes before they are considered for a scan. */
export interface CloudAllowed {
  FILE_PATHS: string[];
  FILE_EXTENSIONS: boolean;
  FILE_EXTENSIONS_LIST: string[];
  MIME_TYPES: boolean;
  MIME_TYPES_LIST: string[];
}

/** Cloud-drive monitoring settings (plex_autoscan called this section GOOGLE). */
export interface CloudConfig {
  ENABLED: boolean;
  CLIENT_ID: string;
  CLIENT_SECRET: string;
  ALLOWED: CloudAllowed;
  TEAMDRIVE: boolean;
  TEAMDRIVES: string[];
  /** Seconds between two polls of the change logs. */
  POLL_INTERVAL: number;
  SHOW_CACHE_LOGS: boolean;
  AUTH_URL: string;
  TOKEN_URL: string;
  /** Origin of the Drive API (the client appends /drive/v3/...). */
  API_URL: string;
  SERVICE_ACCOUNT_FILE: string;
  /** An rclone remote ("gcrypt:", "gdrive:Media") whose credentials, folder and crypt names the monitor uses; empty: none. */
  RCLONE_REMOTE: string;
}

export type ScanMethod = "api" | "scanner";

/** One entry of TARGETS: a media server (or a chained scan service) every scan is delivered to. */
export interface TargetConfig {
  TYPE: TargetType;
  /** Unique; shown in logs and the API, and the key of its delivery records. */
  NAME: string;
  /** Where the server listens; empty for TYPE "command". */
  URL: string;
  /** API key or token (plex, jellyfin, emby, sonarr, radarr, tdarr); empty for autoscan and command. */
  TOKEN: string;
  /** HTTP Basic credentials (autoscan only); both empty for none. */
  USERNAME: string;
  PASSWORD: string;
  /** Path this server sees (key) ← media-server paths SERVER_PATH_MAPPINGS produced (values). */
  PATH_MAPPINGS: Record<string, string[]>;
  /** Regular-expression rewrites from the media-server path to this server's, tried before PATH_MAPPINGS. */
  REWRITES?: RewriteEntry[];
  ENABLED: boolean;
  // TYPE "plex" only: its after-scan work. Unset: the PLEX_* key of the same name (DATABASE_PATH: none, the API is asked).
  CONFIRM_SCANS?: boolean;
  ANALYZE_TYPE?: AnalyzeType;
  ANALYZE_DIRECTORY?: boolean;
  EMPTY_TRASH?: boolean;
  EMPTY_TRASH_MAX_FILES?: number;
  EMPTY_TRASH_ZERO_DELETED?: boolean;
  /** Plex's library database as scanarr can read it; unset or empty: files are looked up through the API. */
  DATABASE_PATH?: string;
  /** TYPE "tdarr" only: the Tdarr library (its id, `dbID`) new files are scanned into. */
  LIBRARY_ID?: string;
  /** TYPE "command" only: the program and its arguments, with `{folder}` and `{file}` placeholders (hooks/arg-template.ts). */
  COMMAND?: string[];
  /** TYPE "command" only: seconds the program may run before it is stopped and the scan retried (60 when unset). */
  TIMEOUT?: number;
}

export type AnalyzeType = "off" | "basic" | "deep";

/** A hook: a string run with `/bin/sh -c`, or an argv array run directly. */
export type HookCommandSetting = string | string[];

/** rclone's remote control, asked to refresh a mount's directory cache when a file is not visible yet. */
export interface RcCacheRefreshConfig {
  ENABLED: boolean;
  RC_URL: string;
  /** `{ remote path: [local mount prefix, ...] }` (plex_autoscan's shape). */
  FILE_EXISTS_TO_REMOTE_MAPPINGS: Record<string, string[]>;
  RC_USER: string;
  RC_PASS: string;
  /** The VFS to refresh when rclone runs several; empty: the only one, or each. */
  FS: string;
}

export interface RcloneConfig {
  /** rclone.conf; empty: RCLONE_CONFIG, else where rclone itself looks. */
  CONFIG: string;
  /** plex_autoscan's `{ "<Drive path prefix>": ["<crypt remote>:"] }`: names under the prefix are decoded with that remote. */
  CRYPT_MAPPINGS: Record<string, string[]>;
  RC_CACHE_REFRESH: RcCacheRefreshConfig;
}

/** What a name under /triggers/<NAME> accepts: one *arr's webhook JSON, or query paths (`?path=`, `?dir=`). */
export type TriggerType = "sonarr" | "radarr" | "lidarr" | "readarr" | "manual";

/** One regular-expression rewrite (docs/configuration.md, "Regular-expression rewrites"). */
export interface RewriteEntry {
  FROM: string;
  TO: string;
}

/** What a source sets for its own requests (SOURCES); every key is optional. */
export interface SourceEntry {
  /** The scan's priority in SERVER_SCAN_PRIORITIES' scale (lower first), instead of the folder's. */
  PRIORITY?: number;
  /** Seconds of quiet before its scans, instead of SERVER_SCAN_DELAY. */
  DELAY?: number;
  /** Regular expressions on the path after the rewrites, before SERVER_PATH_MAPPINGS: one must match (when any are given). */
  INCLUDE?: string[];
  /** Regular expressions on the same path: a match drops it. */
  EXCLUDE?: string[];
  /** Tried before SERVER_PATH_REWRITES for this source's paths. */
  REWRITES?: RewriteEntry[];
}

export interface TriggerEntry {
  NAME: string;
  TYPE: TriggerType;
}

/** One filesystem watch; optional keys take the defaults in src/watch/config.ts. */
export interface WatchEntry {
  PATHS: string[];
  MODE?: "events" | "poll";
  /** Seconds a changed file must stay unchanged before its folder is queued. */
  MIN_AGE?: number;
  /** Regular expressions; a path matching one is not watched. */
  IGNORE?: string[];
  /** Seconds between two poll rounds (MODE "poll"). */
  INTERVAL?: number;
  /** How a poll round finds changed folders: their modification time, or their listing. */
  DETECT?: "auto" | "mtime" | "listing";
}

/** The effective configuration every subcommand receives. */
export interface Config {
  SERVER_IP: string;
  SERVER_PORT: number;
  SERVER_PASS: string;
  SERVER_ALLOW_MANUAL_SCAN: boolean;
  SERVER_PATH_MAPPINGS: Record<string, string[]>;
  /** Regular-expression rewrites of every incoming path, tried in order (the first that matches applies) before SERVER_PATH_MAPPINGS. */
  SERVER_PATH_REWRITES: RewriteEntry[];
  /** Per source (a webhook's app, a /triggers/ name, a-train, watch, drive): priority, delay, filters, rewrites. */
  SOURCES: Record<string, SourceEntry>;
  /** Seconds of quiet before a folder is scanned (trailing debounce). */
  SERVER_SCAN_DELAY: number;
  /** Scan calls in flight per target at once. */
  SERVER_DELIVERY_CONCURRENCY: number;
  SERVER_SCAN_PRIORITIES: Record<string, string[]>;
  SERVER_IGNORE_LIST: string[];
  PLEX_LOCAL_URL: string;
  PLEX_TOKEN: string;
  PLEX_SCANNER: string;
  PLEX_SUPPORT_DIR: string;
  PLEX_LD_LIBRARY_PATH: string;
  PLEX_DATABASE_PATH: string;
  PLEX_USER: string;
  USE_DOCKER: boolean;
  DOCKER_NAME: string;
  USE_SUDO: boolean;
  PLEX_SCAN_METHOD: ScanMethod;
  /** Wait for the section to finish and check that the named files landed. */
  PLEX_CONFIRM_SCANS: boolean;
  /** Seconds between two polls of the sections while scans wait to be confirmed. */
  PLEX_CONFIRM_POLL_INTERVAL: number;
  /** Seconds a section may stay `refreshing` before the files are checked anyway. */
  PLEX_CONFIRM_MAX_WAIT: number;
  /** Seconds after a scan call before missing files cause a second scan (and after it, "unconfirmed"). */
  PLEX_CONFIRM_RESCAN_DELAY: number;
  PLEX_ANALYZE_TYPE: AnalyzeType;
  /** Analyze the parent item (season, album) instead of each file's item. */
  PLEX_ANALYZE_DIRECTORY: boolean;
  PLEX_EMPTY_TRASH: boolean;
  /** Never empty a section's trash holding more deleted items than this; 0 turns emptying off. */
  PLEX_EMPTY_TRASH_MAX_FILES: number;
  PLEX_EMPTY_TRASH_ZERO_DELETED: boolean;
  RUN_COMMAND_BEFORE_SCAN: HookCommandSetting;
  RUN_COMMAND_AFTER_SCAN: HookCommandSetting;
  /** Seconds a hook may run before its process group is stopped. */
  RUN_COMMAND_TIMEOUT: number;
  CLOUD: CloudConfig;
  /** False: the flat PLEX_* keys define no target (Jellyfin or Emby only). */
  PLEX_ENABLED: boolean;
  /** More media servers, after the Plex target of the flat PLEX_* keys. */
  TARGETS: TargetConfig[];
  /** Files or folders that exist only while their mount is up; scans wait while one is missing. */
  ANCHORS: string[];
  /** Check rounds for the files a scan names before giving up; 0 turns file checks off. */
  SERVER_MAX_FILE_CHECKS: number;
  /** Seconds between two check rounds. */
  SERVER_FILE_CHECK_DELAY: number;
  /** `{ local prefix: [media-server prefix, ...] }`: where scanarr sees the files the media server names. */
  SERVER_FILE_EXIST_PATH_MAPPINGS: Record<string, string[]>;
  SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION: boolean;
  /** plex_autoscan's mount guard; scanarr treats each entry as an anchor. */
  PLEX_EMPTY_TRASH_CONTROL_FILES: string[];
  RCLONE: RcloneConfig;
  /** Login for /triggers/* (HTTP Basic) and the dashboard; empty = no login. */
  SERVER_USERNAME: string;
  /** argon2id hash of the login's password, written by `scanarr passwd`. */
  SERVER_PASSWORD_HASH: string;
  /** Extra names under /triggers/ (sonarr, radarr, lidarr, readarr and manual always exist). */
  TRIGGERS: TriggerEntry[];
  /** The *arr apps `connect` and `setup` connected, for `connect --list`; API_KEY is a secret. */
  ARR_APPS: Array<{ TYPE: "sonarr" | "radarr" | "lidarr" | "readarr"; URL: string; API_KEY: string }>;
  WATCH: WatchEntry[];
  /** GET /metrics (Prometheus text format); off by default. */
  METRICS: { ENABLED: boolean };
  /** Discord and JSON webhooks told about failed scans, targets down, anchors missing and drive monitoring failing. */
  NOTIFICATIONS: NotificationEntry[];
  /** Minutes a target must stay unavailable or misconfigured before a "target-down" notification. */
  NOTIFY_TARGET_DOWN_MINUTES: number;
}

export type NotificationType = "discord" | "json";

/** What a NOTIFICATIONS entry can ask for; each problem's end ("back", "up") goes with it. */
export type NotificationEvent = "scan-failed" | "scan-unconfirmed" | "target-down" | "anchors-missing" | "drive-failing";

/** One NOTIFICATIONS entry; an absent TYPE is guessed from the URL and absent EVENTS mean all (src/notify/settings.ts). */
export interface NotificationEntry {
  /** A secret: Discord webhook URLs carry their token in the path. Only the host is ever shown. */
  URL: string;
  TYPE?: NotificationType;
  EVENTS?: NotificationEvent[];
}
