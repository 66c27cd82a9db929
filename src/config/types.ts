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
}

export type ScanMethod = "api" | "scanner";

export type TargetType = "plex" | "jellyfin" | "emby" | "autoscan";

/** One entry of TARGETS: a media server (or a chained scan service) every scan is delivered to. */
export interface TargetConfig {
  TYPE: TargetType;
  /** Unique; shown in logs and the API, and the key of its delivery records. */
  NAME: string;
  URL: string;
  /** API key or token (plex, jellyfin, emby); empty for autoscan. */
  TOKEN: string;
  /** HTTP Basic credentials (autoscan only); both empty for none. */
  USERNAME: string;
  PASSWORD: string;
  /** Path this server sees (key) ← media-server paths SERVER_PATH_MAPPINGS produced (values). */
  PATH_MAPPINGS: Record<string, string[]>;
  ENABLED: boolean;
}

/** What a name under /triggers/<NAME> accepts: one *arr's webhook JSON, or query paths (`?path=`, `?dir=`). */
export type TriggerType = "sonarr" | "radarr" | "lidarr" | "readarr" | "manual";

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
  /** Seconds of quiet before a folder is scanned (trailing debounce). */
  SERVER_SCAN_DELAY: number;
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
  CLOUD: CloudConfig;
  /** False: the flat PLEX_* keys define no target (Jellyfin or Emby only). */
  PLEX_ENABLED: boolean;
  /** More media servers, after the Plex target of the flat PLEX_* keys. */
  TARGETS: TargetConfig[];
  /** Login for /triggers/* (HTTP Basic) and the dashboard; empty = no login. */
  SERVER_USERNAME: string;
  /** argon2id hash of the login's password, written by `scanarr passwd`. */
  SERVER_PASSWORD_HASH: string;
  /** Extra names under /triggers/ (sonarr, radarr, lidarr, readarr and manual always exist). */
  TRIGGERS: TriggerEntry[];
  WATCH: WatchEntry[];
}
