import { randomBytes } from "node:crypto";
import type { CloudConfig, Config, ScanMethod, TargetConfig } from "./types.js";

export const GOOGLE_AUTH_URL = "https://accounts.google.com/o/oauth2/v2/auth";
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
export const GOOGLE_API_URL = "https://www.googleapis.com/";

export const DEFAULT_VIDEO_EXTENSIONS = [
  "webm",
  "mkv",
  "flv",
  "vob",
  "ogv",
  "ogg",
  "drc",
  "gif",
  "gifv",
  "mng",
  "avi",
  "mov",
  "qt",
  "wmv",
  "yuv",
  "rm",
  "rmvb",
  "asf",
  "amv",
  "mp4",
  "m4p",
  "m4v",
  "mpg",
  "mp2",
  "mpeg",
  "mpe",
  "mpv",
  "m2v",
  "svi",
  "3gp",
  "3g2",
  "mxf",
  "roq",
  "nsv",
  "f4v",
  "f4p",
  "f4a",
  "f4b",
  "mp3",
  "flac",
  "ts",
];

/** A fresh random SERVER_PASS: 32 hex characters, as plex_autoscan generates. */
export function generateServerPass(): string {
  return randomBytes(16).toString("hex");
}

function defaultCloud(): CloudConfig {
  return {
    ENABLED: false,
    CLIENT_ID: "",
    CLIENT_SECRET: "",
    ALLOWED: {
      FILE_PATHS: ["My Drive/Media/Movies/", "My Drive/Media/TV/"],
      FILE_EXTENSIONS: true,
      FILE_EXTENSIONS_LIST: [...DEFAULT_VIDEO_EXTENSIONS],
      MIME_TYPES: true,
      MIME_TYPES_LIST: ["video"],
    },
    TEAMDRIVE: false,
    TEAMDRIVES: [],
    POLL_INTERVAL: 120,
    SHOW_CACHE_LOGS: false,
    AUTH_URL: GOOGLE_AUTH_URL,
    TOKEN_URL: GOOGLE_TOKEN_URL,
    API_URL: GOOGLE_API_URL,
    SERVICE_ACCOUNT_FILE: "",
    RCLONE_REMOTE: "",
  };
}

/**
 * The complete default configuration. `pass` is injected so a first run writes
 * a random secret while tests can pin it.
 */
export function defaultConfig(pass: string = generateServerPass()): Config {
  return {
    SERVER_IP: "0.0.0.0",
    SERVER_PORT: 3468,
    SERVER_PASS: pass,
    SERVER_ALLOW_MANUAL_SCAN: false,
    SERVER_PATH_MAPPINGS: {
      "/data/Movies/": ["/mnt/unionfs/Media/Movies/", "My Drive/Media/Movies/"],
      "/data/TV/": ["/mnt/unionfs/Media/TV/", "My Drive/Media/TV/"],
    },
    SERVER_PATH_REWRITES: [],
    SOURCES: {},
    SERVER_SCAN_DELAY: 180,
    SERVER_DELIVERY_CONCURRENCY: 4,
    SERVER_SCAN_PRIORITIES: {},
    SERVER_IGNORE_LIST: ["/.grab/", ".DS_Store", "Thumbs.db"],
    PLEX_LOCAL_URL: "http://localhost:32400",
    PLEX_TOKEN: "",
    PLEX_SCANNER: "/usr/lib/plexmediaserver/Plex Media Scanner",
    PLEX_SUPPORT_DIR: "/var/lib/plexmediaserver/Library/Application Support",
    PLEX_LD_LIBRARY_PATH: "/usr/lib/plexmediaserver/lib",
    PLEX_DATABASE_PATH:
      "/var/lib/plexmediaserver/Library/Application Support/Plex Media Server/Plug-in Support/Databases/com.plexapp.plugins.library.db",
    PLEX_USER: "plex",
    USE_DOCKER: false,
    DOCKER_NAME: "plex",
    USE_SUDO: false,
    PLEX_SCAN_METHOD: "api",
    PLEX_CONFIRM_SCANS: true,
    PLEX_CONFIRM_POLL_INTERVAL: 10,
    PLEX_CONFIRM_MAX_WAIT: 1800,
    PLEX_CONFIRM_RESCAN_DELAY: 120,
    PLEX_ANALYZE_TYPE: "off",
    PLEX_ANALYZE_DIRECTORY: false,
    PLEX_EMPTY_TRASH: false,
    PLEX_EMPTY_TRASH_MAX_FILES: 100,
    PLEX_EMPTY_TRASH_ZERO_DELETED: false,
    RUN_COMMAND_BEFORE_SCAN: "",
    RUN_COMMAND_AFTER_SCAN: "",
    RUN_COMMAND_TIMEOUT: 600,
    CLOUD: defaultCloud(),
    SERVER_USERNAME: "",
    SERVER_PASSWORD_HASH: "",
    TRIGGERS: [],
    ARR_APPS: [],
    WATCH: [],
    METRICS: { ENABLED: false },
    PLEX_ENABLED: true,
    TARGETS: [],
    ANCHORS: [],
    // Off unless set: a scanarr that cannot see the media (another host, a container without the
    // media volume) would hold every scan. plex_autoscan files carry their own value (10).
    SERVER_MAX_FILE_CHECKS: 0,
    SERVER_FILE_CHECK_DELAY: 60,
    SERVER_FILE_EXIST_PATH_MAPPINGS: {},
    SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION: false,
    PLEX_EMPTY_TRASH_CONTROL_FILES: [],
    RCLONE: {
      CONFIG: "",
      CRYPT_MAPPINGS: {},
      RC_CACHE_REFRESH: {
        ENABLED: false,
        RC_URL: "http://localhost:5572",
        FILE_EXISTS_TO_REMOTE_MAPPINGS: {},
        RC_USER: "",
        RC_PASS: "",
        FS: "",
      },
    },
    NOTIFICATIONS: [],
    NOTIFY_TARGET_DOWN_MINUTES: 10,
  };
}

/** Names of the Plex target the flat PLEX_* keys define, by PLEX_SCAN_METHOD (as plex_autoscan users know them). */
export const PLEX_TARGET_NAMES: Readonly<Record<ScanMethod, string>> = { api: "plex", scanner: "plex-scanner" };

/** A TARGETS entry as written, with the common optional fields filled in (the fields of one TYPE only stay as written). */
export function withTargetDefaults(entry: Pick<TargetConfig, "TYPE" | "NAME"> & Partial<TargetConfig>): TargetConfig {
  return {
    ...entry,
    URL: entry.URL ?? "",
    TOKEN: entry.TOKEN ?? "",
    USERNAME: entry.USERNAME ?? "",
    PASSWORD: entry.PASSWORD ?? "",
    PATH_MAPPINGS: entry.PATH_MAPPINGS ?? {},
    ENABLED: entry.ENABLED ?? true,
  };
}
