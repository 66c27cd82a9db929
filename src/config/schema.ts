import { ARR_APPS, CLOUD, NOTIFICATIONS, RCLONE, REWRITES, SOURCE_ENTRY, TARGET_ENTRY, TRIGGERS, WATCH } from "./schema-parts.js";
import { bool, byKey, command, host, int, list, map, num, obj, oneOf, opt, secret, str, strs, url } from "./spec-builders.js";

export { NOTIFICATION_EVENTS } from "./schema-parts.js";
export { holdsSecret, type Secret, type Spec, secretOf } from "./spec.js";

const PLEX_SUPPORT = "/var/lib/plexmediaserver/Library/Application Support";

/**
 * Every config key, declared once: kind and limits, secret mark, default and
 * a one-line description. The `Config` type (types.ts), the defaults
 * (defaults.ts), what is secret (secrets.ts, mask.ts) and the docs check come
 * from it. A target type's own entry fields are in `targets/<type>/config.ts`.
 */
export const CONFIG_SCHEMA = obj(
  {
    SERVER_IP: host("0.0.0.0", "the address the HTTP server listens on"),
    SERVER_PORT: int(3468, "its port (0: any free one)", { min: 0, max: 65535 }),
    SERVER_PASS: str("", "the secret last segment of the webhook URL", {
      nonEmpty: true,
      pattern: /^[A-Za-z0-9._~-]{8,}$/,
      hint: "must be at least 8 characters from A-Z a-z 0-9 . _ ~ - (it is a URL path segment)",
      secret: true,
    }),
    SERVER_ALLOW_MANUAL_SCAN: bool(false, "serve the manual scan page and its webhook"),
    SERVER_PATH_MAPPINGS: byKey(
      {
        "/data/Movies/": ["/mnt/unionfs/Media/Movies/", "My Drive/Media/Movies/"],
        "/data/TV/": ["/mnt/unionfs/Media/TV/", "My Drive/Media/TV/"],
      },
      "media-server path (key) ← the paths Sonarr, Radarr, a mount or Drive name it (values)",
    ),
    SERVER_PATH_REWRITES: { ...REWRITES, doc: "rewrites of every incoming path, tried before SERVER_PATH_MAPPINGS" },
    SOURCES: map(SOURCE_ENTRY, "per source (a webhook's app, a /triggers/ name, a-train, watch, drive): priority, delay, filters"),
    // Short (plex_autoscan waited 180 s): a batch's end skips it and file checks guard the mount (docs/configuration.md).
    SERVER_SCAN_DELAY: num(10, "seconds of quiet before a folder is scanned (trailing debounce)", 0),
    SERVER_DELIVERY_CONCURRENCY: int(4, "scan calls in flight per target at once", { min: 1, max: 64 }),
    SERVER_SCAN_PRIORITIES: byKey({}, "priority (lower first) → path prefixes", {
      keyPattern: /^-?\d+$/,
      keyHint: 'must be an integer priority such as "0"',
    }),
    SERVER_IGNORE_LIST: strs(["/.grab/", ".DS_Store", "Thumbs.db"], "paths containing one of these are not scanned"),
    PLEX_LOCAL_URL: url("http://localhost:32400", "how scanarr reaches Plex"),
    PLEX_TOKEN: secret("the token of the Plex server's admin account"),
    PLEX_SCANNER: str("/usr/lib/plexmediaserver/Plex Media Scanner", "Plex Media Scanner (PLEX_SCAN_METHOD scanner)"),
    PLEX_SUPPORT_DIR: str(PLEX_SUPPORT, "Plex's Application Support folder, for the scanner"),
    PLEX_LD_LIBRARY_PATH: str("/usr/lib/plexmediaserver/lib", "the scanner's library path"),
    PLEX_DATABASE_PATH: str(
      `${PLEX_SUPPORT}/Plex Media Server/Plug-in Support/Databases/com.plexapp.plugins.library.db`,
      "Plex's library database, read to find the sections and the files",
    ),
    PLEX_USER: str("plex", "the user the scanner runs as", { nonEmpty: true }),
    USE_DOCKER: bool(false, "run the scanner inside Plex's container"),
    DOCKER_NAME: str("plex", "that container's name"),
    USE_SUDO: bool(false, "run the scanner through sudo as PLEX_USER"),
    PLEX_SCAN_METHOD: oneOf(["api", "scanner"], "api", '"api" asks Plex over HTTP; "scanner" runs Plex Media Scanner'),
    PLEX_CONFIRM_SCANS: bool(true, "wait for the section to finish and check that the named files landed"),
    PLEX_CONFIRM_POLL_INTERVAL: int(10, "seconds between two polls of the sections while scans wait to be confirmed", { min: 1 }),
    PLEX_CONFIRM_MAX_WAIT: int(1800, "seconds a section may stay refreshing before the files are checked anyway", { min: 1 }),
    PLEX_CONFIRM_RESCAN_DELAY: int(120, "seconds after a scan before missing files cause a second scan", { min: 0 }),
    PLEX_ANALYZE_TYPE: oneOf(["off", "basic", "deep"], "off", "analyze the scanned items"),
    PLEX_ANALYZE_DIRECTORY: bool(false, "analyze the parent item (season, album) instead of each file's"),
    PLEX_EMPTY_TRASH: bool(false, "empty the section's trash after a scan"),
    PLEX_EMPTY_TRASH_MAX_FILES: int(100, "never empty a trash holding more deleted items than this; 0 turns it off", { min: 0 }),
    PLEX_EMPTY_TRASH_ZERO_DELETED: bool(false, "empty the trash even when the scan deleted nothing"),
    RUN_COMMAND_BEFORE_SCAN: command("", "a hook run before each scan"),
    RUN_COMMAND_AFTER_SCAN: command("", "a hook run after each scan"),
    RUN_COMMAND_TIMEOUT: int(600, "seconds a hook may run before its process group is stopped", { min: 1 }),
    CLOUD,
    SERVER_USERNAME: str("", "login for /triggers/* and the dashboard; empty: no login"),
    SERVER_PASSWORD_HASH: str("", "argon2id hash of the login's password, written by `scanarr passwd`", {
      pattern: /^(?:|\$argon2id\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+)$/,
      hint: "must be an argon2id hash as written by `scanarr passwd` (or empty)",
      secret: "hash",
    }),
    TRIGGERS,
    ARR_APPS,
    WATCH,
    METRICS: obj({ ENABLED: bool(false, "serve GET /metrics (Prometheus text format)") }, "the metrics endpoint"),
    PLEX_ENABLED: bool(true, "false: the flat PLEX_* keys define no target"),
    TARGETS: list(TARGET_ENTRY, "more media servers, after the Plex target of the flat PLEX_* keys"),
    ANCHORS: strs([], "files or folders that exist only while their mount is up; scans wait while one is missing", true),
    // Unset: on for files whose library folder this machine has, off elsewhere (a scanarr that cannot
    // see the media would hold every scan); mount/file-check-scope.ts. plex_autoscan files carry 10.
    SERVER_MAX_FILE_CHECKS: opt(
      int(undefined, "check rounds for the files a scan names before giving up; 0 turns file checks off; unset: automatic", { min: 0 }),
    ),
    SERVER_FILE_CHECK_DELAY: num(5, "seconds between two check rounds", 0),
    SERVER_FILE_EXIST_PATH_MAPPINGS: byKey({}, "local prefix → media-server prefixes: where scanarr sees the files", {
      keyPattern: /^\//,
      keyHint: "must be an absolute path on this machine",
    }),
    SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION: bool(false, "scan the folder anyway when the file checks run out"),
    PLEX_EMPTY_TRASH_CONTROL_FILES: strs([], "plex_autoscan's mount guard; each entry is an anchor", true),
    RCLONE,
    NOTIFICATIONS,
    NOTIFY_TARGET_DOWN_MINUTES: int(10, "minutes a target must stay down before a target-down notification", { min: 1 }),
  },
  "the config",
);

/**
 * plex_autoscan keys scanarr accepts in a migrated file but does not act on;
 * each one present gets a warning instead of an "unknown key" error.
 */
export const LEGACY_KEYS: ReadonlySet<string> = new Set([
  "SERVER_USE_SQLITE",
  "PLEX_CHECK_BEFORE_SCAN",
  "PLEX_WAIT_FOR_EXTERNAL_SCANNERS",
  "PLEX_FIX_MISMATCHED",
  "PLEX_FIX_MISMATCHED_LANG",
  "PLEX_SECTION_PATH_MAPPINGS",
  "PLEX_SECTION_PATH_MAPPINGS_WITH_API",
  "RCLONE.BINARY",
  "RCLONE.RC_CACHE_EXPIRE",
  "CLOUD.DISABLE_DISK_FILE_SIZE_CHECK",
]);
