import { TARGET_TYPES } from "../domain.js";
import { bool, byKey, int, list, num, obj, oneOf, opt, secret, str, strs, url } from "./spec-builders.js";

// The config's nested parts: the TARGETS entry, a source's settings, the
// entries of TRIGGERS, WATCH and NOTIFICATIONS, CLOUD and RCLONE.

export const GOOGLE_AUTH_URL = "https://accounts.google.com/o/oauth2/v2/auth";
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
export const GOOGLE_API_URL = "https://www.googleapis.com/";

// biome-ignore format: one extension list, kept short
export const DEFAULT_VIDEO_EXTENSIONS = [
  "webm", "mkv", "flv", "vob", "ogv", "ogg", "drc", "gif", "gifv", "mng", "avi", "mov", "qt", "wmv", "yuv", "rm", "rmvb",
  "asf", "amv", "mp4", "m4p", "m4v", "mpg", "mp2", "mpeg", "mpe", "mpv", "m2v", "svi", "3gp", "3g2", "mxf", "roq", "nsv",
  "f4v", "f4p", "f4a", "f4b", "mp3", "flac", "ts",
] as const;

/** A regular-expression rewrite: FROM a pattern (Go syntax translated), TO a template with $1, ${1}, ${name}. */
export const REWRITES = list(
  obj(
    { FROM: str(undefined, "a regular expression on the path", { nonEmpty: true }), TO: str(undefined, "its replacement ($1, ${name})") },
    "one rewrite",
    ["FROM", "TO"],
  ),
  "regular-expression rewrites, tried in order (the first that matches applies)",
);

/** What one source (a webhook's app, a /triggers/ name, watch, drive) may set for its requests. */
export const SOURCE_ENTRY = obj(
  {
    PRIORITY: opt(int(undefined, "the scan's priority (lower first), instead of the folder's")),
    DELAY: opt(num(undefined, "seconds of quiet before its scans, instead of SERVER_SCAN_DELAY", 0)),
    INCLUDE: opt(strs(undefined, "regular expressions on the path: one must match (when any are given)")),
    EXCLUDE: opt(strs(undefined, "regular expressions on the path: a match drops it")),
    REWRITES: opt({ ...REWRITES, doc: "rewrites tried before SERVER_PATH_REWRITES for this source's paths" }),
  },
  "what one source sets for its requests",
);

/**
 * The fields every TARGETS entry takes; each target folder declares the fields
 * only its TYPE takes (`targets/<type>/config.ts`), added by `configSchema`.
 */
export const TARGET_ENTRY = obj(
  {
    TYPE: oneOf(TARGET_TYPES, undefined, "the kind of server"),
    NAME: str(undefined, "unique; shown in logs and the API, and the key of its delivery records", {
      nonEmpty: true,
      pattern: /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/,
      hint: "must be 1-40 characters from A-Z a-z 0-9 . _ - starting with a letter or digit",
    }),
    // Required by a rule: every TYPE but "command" needs one.
    URL: url("", "where the server listens"),
    TOKEN: secret("its API key or token"),
    USERNAME: str("", "HTTP Basic user (autoscan)"),
    PASSWORD: secret("HTTP Basic password (autoscan)"),
    PATH_MAPPINGS: byKey({}, "path this server sees (key) ← media-server paths (values)"),
    REWRITES: opt({ ...REWRITES, doc: "rewrites to this server's paths, tried before PATH_MAPPINGS" }),
    ENABLED: bool(true, "false: the entry is kept but nothing is sent to it"),
  },
  "a media server (or a chained scan service) every scan is delivered to",
  ["TYPE", "NAME"],
);

/** The events a NOTIFICATIONS entry can ask for (all of them when it names none). */
export const NOTIFICATION_EVENTS = ["scan-failed", "scan-unconfirmed", "target-down", "anchors-missing", "drive-failing"] as const;

export const TRIGGERS = list(
  obj(
    {
      NAME: str(undefined, "the last segment of /triggers/<NAME>", {
        pattern: /^[A-Za-z0-9._~-]+$/,
        hint: "must be one or more of A-Z a-z 0-9 . _ ~ - (it is the last segment of /triggers/<NAME>)",
      }),
      TYPE: oneOf(["sonarr", "radarr", "lidarr", "readarr", "manual"], undefined, "what the name accepts"),
    },
    "a name under /triggers/",
    ["NAME", "TYPE"],
  ),
  "extra names under /triggers/ (sonarr, radarr, lidarr, readarr and manual always exist)",
);

/** An *arr app `setup` or `connect` connected; `connect --list` asks them again. serve never reads it. */
export const ARR_APPS = list(
  obj(
    {
      TYPE: oneOf(["sonarr", "radarr", "lidarr", "readarr"], undefined, "which app"),
      URL: url(undefined, "where scanarr reaches the app"),
      API_KEY: str(undefined, "the app's API key", { nonEmpty: true, secret: true }),
    },
    "an *arr app scanarr connected",
    ["TYPE", "URL", "API_KEY"],
  ),
  "the *arr apps setup and connect connected, for connect --list",
);

export const WATCH = list(
  obj(
    {
      PATHS: strs(undefined, "folders to watch"),
      MODE: opt(oneOf(["events", "poll"], undefined, "inotify events, or poll rounds")),
      MIN_AGE: opt(num(undefined, "seconds a changed file must stay unchanged before its folder is queued", 0)),
      IGNORE: opt(strs(undefined, "regular expressions; a path matching one is not watched")),
      INTERVAL: opt(int(undefined, "seconds between two poll rounds", { min: 1 })),
      DETECT: opt(oneOf(["auto", "mtime", "listing"], undefined, "how a poll round finds changed folders")),
    },
    "one filesystem watch",
    ["PATHS"],
  ),
  "filesystem watches that queue the folders that change",
);

export const NOTIFICATIONS = list(
  obj(
    {
      URL: url(undefined, "the webhook (a secret: Discord's carry their token)", true),
      TYPE: opt(oneOf(["discord", "json"], undefined, "guessed from the URL when absent")),
      EVENTS: opt(list(oneOf(NOTIFICATION_EVENTS, undefined, "an event"), "the events to send; all when absent")),
    },
    "one notification webhook",
    ["URL"],
  ),
  "Discord and JSON webhooks told about failed scans, targets down, anchors missing and drive monitoring failing",
);

export const CLOUD = obj(
  {
    ENABLED: bool(false, "monitor Google Drive's changes"),
    CLIENT_ID: str("", "the OAuth client's id"),
    CLIENT_SECRET: secret("the OAuth client's secret"),
    ALLOWED: obj(
      {
        FILE_PATHS: strs(["My Drive/Media/Movies/", "My Drive/Media/TV/"], "Drive folders whose changes count"),
        FILE_EXTENSIONS: bool(true, "only files with an extension in FILE_EXTENSIONS_LIST"),
        FILE_EXTENSIONS_LIST: strs(DEFAULT_VIDEO_EXTENSIONS, "the extensions that count"),
        MIME_TYPES: bool(true, "only files with a MIME type in MIME_TYPES_LIST"),
        MIME_TYPES_LIST: strs(["video"], "the MIME types (or their first part) that count"),
      },
      "filters applied to drive changes before they are considered for a scan",
    ),
    TEAMDRIVE: bool(false, "watch shared drives too"),
    TEAMDRIVES: strs([], "the shared drives to watch, by name"),
    POLL_INTERVAL: int(120, "seconds between two polls of the change logs", { min: 1 }),
    SHOW_CACHE_LOGS: bool(false, "log the drive cache's updates"),
    AUTH_URL: url(GOOGLE_AUTH_URL, "Google's OAuth authorization endpoint"),
    TOKEN_URL: url(GOOGLE_TOKEN_URL, "Google's OAuth token endpoint"),
    API_URL: url(GOOGLE_API_URL, "origin of the Drive API (the client appends /drive/v3/...)"),
    SERVICE_ACCOUNT_FILE: str("", "a service account's key file, instead of the OAuth client"),
    RCLONE_REMOTE: str("", "an rclone remote whose credentials, folder and crypt names the monitor uses; empty: none", {
      pattern: /^(?:|[^:/\\]+:.*)$/,
      hint: 'must be an rclone remote such as "gcrypt:" or "gdrive:Media" (a name and a colon), or empty',
    }),
  },
  "Google Drive monitoring (plex_autoscan called this section GOOGLE)",
);

export const RCLONE = obj(
  {
    CONFIG: str("", "rclone.conf; empty: RCLONE_CONFIG, else where rclone itself looks"),
    CRYPT_MAPPINGS: byKey({}, "Drive path prefix → crypt remotes that decode the names under it"),
    RC_CACHE_REFRESH: obj(
      {
        ENABLED: bool(false, "ask rclone to refresh a mount's directory cache when a file is not visible yet"),
        RC_URL: url("http://localhost:5572", "rclone's remote control"),
        FILE_EXISTS_TO_REMOTE_MAPPINGS: byKey({}, "remote path → local mount prefixes", { absoluteValues: true }),
        RC_USER: str("", "the remote control's user"),
        RC_PASS: secret("the remote control's password"),
        FS: str("", "the VFS to refresh when rclone runs several; empty: the only one, or each"),
      },
      "rclone's remote control, asked to refresh a mount's directory cache",
    ),
  },
  "rclone: its config file, crypt names and the mount's cache",
);
