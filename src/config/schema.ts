import { TARGET_TYPES } from "../domain.js";

/**
 * Marks a value as secret: config errors never echo it, and `config show`,
 * doctor, the logs and notifications mask it (config/secrets.ts reads the
 * marks; nothing else lists secrets). `"hash"` is shown only as set or not.
 */
export type Secret = true | "hash";

/** A declarative description of each config value, checked by validate.ts. */
export type Spec =
  | { kind: "boolean" }
  | { kind: "string"; nonEmpty?: boolean; pattern?: RegExp; hint?: string; secret?: Secret }
  | { kind: "url"; secret?: Secret }
  | { kind: "host" }
  | { kind: "integer"; min?: number; max?: number }
  | { kind: "number"; min?: number }
  | { kind: "enum"; values: readonly string[] }
  | { kind: "strings"; absolute?: boolean }
  | { kind: "stringsByKey"; keyPattern?: RegExp; keyHint?: string; absoluteValues?: boolean }
  | { kind: "object"; fields: Record<string, Spec>; required?: readonly string[] }
  | { kind: "list"; item: Spec }
  /** An object whose keys are names the rules check (SOURCES), each value of one spec. */
  | { kind: "map"; value: Spec }
  /** A command: a string for `/bin/sh -c`, or an argv array (the program first). */
  | { kind: "command" };

/** The secret mark of a leaf spec, if it has one. */
export function secretOf(spec: Spec): Secret | undefined {
  return spec.kind === "string" || spec.kind === "url" ? spec.secret : undefined;
}

/** Whether `spec` is a secret or holds one (a list of targets, the CLOUD object): a wrong value there is described by its type only. */
export function holdsSecret(spec: Spec): boolean {
  if (secretOf(spec) !== undefined) return true;
  if (spec.kind === "object") return Object.values(spec.fields).some(holdsSecret);
  if (spec.kind === "list") return holdsSecret(spec.item);
  if (spec.kind === "map") return holdsSecret(spec.value);
  return false;
}

const bool: Spec = { kind: "boolean" };
const str: Spec = { kind: "string" };
const strings: Spec = { kind: "strings" };
const url: Spec = { kind: "url" };
const secret: Spec = { kind: "string", secret: true };

/** A regular-expression rewrite: FROM a pattern (Go syntax translated), TO a template with $1, ${1}, ${name}. */
const REWRITES: Spec = {
  kind: "list",
  item: { kind: "object", required: ["FROM", "TO"], fields: { FROM: { kind: "string", nonEmpty: true }, TO: str } },
};

/** What one source (a webhook's app, a /triggers/ name, watch, drive) may set for its requests. */
const SOURCE_ENTRY: Spec = {
  kind: "object",
  fields: {
    PRIORITY: { kind: "integer" },
    DELAY: { kind: "number", min: 0 },
    INCLUDE: strings,
    EXCLUDE: strings,
    REWRITES,
  },
};

/**
 * The fields every TARGETS entry takes; each target folder declares the fields
 * only its TYPE takes (`targets/<type>/config.ts`), added by `configSchema`.
 */
const TARGET_ENTRY = {
  kind: "object",
  // URL is required by a rule: every TYPE but "command" needs one.
  required: ["TYPE", "NAME"],
  fields: {
    TYPE: { kind: "enum", values: TARGET_TYPES },
    NAME: {
      kind: "string",
      nonEmpty: true,
      pattern: /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/,
      hint: "must be 1-40 characters from A-Z a-z 0-9 . _ - starting with a letter or digit",
    },
    URL: url,
    TOKEN: secret,
    USERNAME: str,
    PASSWORD: secret,
    PATH_MAPPINGS: { kind: "stringsByKey" },
    REWRITES,
    ENABLED: bool,
  },
} satisfies Spec;

/** The events a NOTIFICATIONS entry can ask for (all of them when it names none). */
export const NOTIFICATION_EVENTS = ["scan-failed", "scan-unconfirmed", "target-down", "anchors-missing", "drive-failing"] as const;

export const CONFIG_SCHEMA = {
  kind: "object",
  fields: {
    SERVER_IP: { kind: "host" },
    SERVER_PORT: { kind: "integer", min: 0, max: 65535 },
    SERVER_PASS: {
      kind: "string",
      nonEmpty: true,
      pattern: /^[A-Za-z0-9._~-]{8,}$/,
      hint: "must be at least 8 characters from A-Z a-z 0-9 . _ ~ - (it is a URL path segment)",
      secret: true,
    },
    SERVER_ALLOW_MANUAL_SCAN: bool,
    SERVER_PATH_MAPPINGS: { kind: "stringsByKey" },
    SERVER_PATH_REWRITES: REWRITES,
    SOURCES: { kind: "map", value: SOURCE_ENTRY },
    SERVER_SCAN_DELAY: { kind: "number", min: 0 },
    SERVER_SCAN_PRIORITIES: { kind: "stringsByKey", keyPattern: /^-?\d+$/, keyHint: 'must be an integer priority such as "0"' },
    SERVER_IGNORE_LIST: strings,
    SERVER_DELIVERY_CONCURRENCY: { kind: "integer", min: 1, max: 64 },
    PLEX_LOCAL_URL: url,
    PLEX_TOKEN: secret,
    PLEX_SCANNER: str,
    PLEX_SUPPORT_DIR: str,
    PLEX_LD_LIBRARY_PATH: str,
    PLEX_DATABASE_PATH: str,
    PLEX_USER: { kind: "string", nonEmpty: true },
    USE_DOCKER: bool,
    DOCKER_NAME: str,
    USE_SUDO: bool,
    PLEX_SCAN_METHOD: { kind: "enum", values: ["api", "scanner"] },
    PLEX_CONFIRM_SCANS: bool,
    PLEX_CONFIRM_POLL_INTERVAL: { kind: "integer", min: 1 },
    PLEX_CONFIRM_MAX_WAIT: { kind: "integer", min: 1 },
    PLEX_CONFIRM_RESCAN_DELAY: { kind: "integer", min: 0 },
    PLEX_ANALYZE_TYPE: { kind: "enum", values: ["off", "basic", "deep"] },
    PLEX_ANALYZE_DIRECTORY: bool,
    PLEX_EMPTY_TRASH: bool,
    PLEX_EMPTY_TRASH_MAX_FILES: { kind: "integer", min: 0 },
    PLEX_EMPTY_TRASH_ZERO_DELETED: bool,
    RUN_COMMAND_BEFORE_SCAN: { kind: "command" },
    RUN_COMMAND_AFTER_SCAN: { kind: "command" },
    RUN_COMMAND_TIMEOUT: { kind: "integer", min: 1 },
    CLOUD: {
      kind: "object",
      fields: {
        ENABLED: bool,
        CLIENT_ID: str,
        CLIENT_SECRET: secret,
        ALLOWED: {
          kind: "object",
          fields: {
            FILE_PATHS: strings,
            FILE_EXTENSIONS: bool,
            FILE_EXTENSIONS_LIST: strings,
            MIME_TYPES: bool,
            MIME_TYPES_LIST: strings,
          },
        },
        TEAMDRIVE: bool,
        TEAMDRIVES: strings,
        POLL_INTERVAL: { kind: "integer", min: 1 },
        SHOW_CACHE_LOGS: bool,
        AUTH_URL: url,
        TOKEN_URL: url,
        API_URL: url,
        SERVICE_ACCOUNT_FILE: str,
        RCLONE_REMOTE: {
          kind: "string",
          pattern: /^(?:|[^:/\\]+:.*)$/,
          hint: 'must be an rclone remote such as "gcrypt:" or "gdrive:Media" (a name and a colon), or empty',
        },
      },
    },
    PLEX_ENABLED: bool,
    TARGETS: { kind: "list", item: TARGET_ENTRY },
    ANCHORS: { kind: "strings", absolute: true },
    SERVER_MAX_FILE_CHECKS: { kind: "integer", min: 0 },
    SERVER_FILE_CHECK_DELAY: { kind: "number", min: 0 },
    SERVER_FILE_EXIST_PATH_MAPPINGS: { kind: "stringsByKey", keyPattern: /^\//, keyHint: "must be an absolute path on this machine" },
    SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION: bool,
    PLEX_EMPTY_TRASH_CONTROL_FILES: { kind: "strings", absolute: true },
    RCLONE: {
      kind: "object",
      fields: {
        CONFIG: str,
        CRYPT_MAPPINGS: { kind: "stringsByKey" },
        RC_CACHE_REFRESH: {
          kind: "object",
          fields: {
            ENABLED: bool,
            RC_URL: url,
            FILE_EXISTS_TO_REMOTE_MAPPINGS: { kind: "stringsByKey", absoluteValues: true },
            RC_USER: str,
            RC_PASS: secret,
            FS: str,
          },
        },
      },
    },
    SERVER_USERNAME: str,
    SERVER_PASSWORD_HASH: {
      kind: "string",
      pattern: /^(?:|\$argon2id\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+)$/,
      hint: "must be an argon2id hash as written by `scanarr passwd` (or empty)",
      secret: "hash",
    },
    TRIGGERS: {
      kind: "list",
      item: {
        kind: "object",
        required: ["NAME", "TYPE"],
        fields: {
          NAME: {
            kind: "string",
            pattern: /^[A-Za-z0-9._~-]+$/,
            hint: "must be one or more of A-Z a-z 0-9 . _ ~ - (it is the last segment of /triggers/<NAME>)",
          },
          TYPE: { kind: "enum", values: ["sonarr", "radarr", "lidarr", "readarr", "manual"] },
        },
      },
    },
    ARR_APPS: {
      kind: "list",
      item: {
        kind: "object",
        required: ["TYPE", "URL", "API_KEY"],
        fields: {
          TYPE: { kind: "enum", values: ["sonarr", "radarr", "lidarr", "readarr"] },
          URL: url,
          API_KEY: { kind: "string", nonEmpty: true, secret: true },
        },
      },
    },
    WATCH: {
      kind: "list",
      item: {
        kind: "object",
        required: ["PATHS"],
        fields: {
          PATHS: strings,
          MODE: { kind: "enum", values: ["events", "poll"] },
          MIN_AGE: { kind: "number", min: 0 },
          IGNORE: strings,
          INTERVAL: { kind: "integer", min: 1 },
          DETECT: { kind: "enum", values: ["auto", "mtime", "listing"] },
        },
      },
    },
    METRICS: { kind: "object", fields: { ENABLED: bool } },
    NOTIFICATIONS: {
      kind: "list",
      item: {
        kind: "object",
        required: ["URL"],
        fields: {
          URL: { kind: "url", secret: true },
          TYPE: { kind: "enum", values: ["discord", "json"] },
          EVENTS: {
            kind: "list",
            item: { kind: "enum", values: NOTIFICATION_EVENTS },
          },
        },
      },
    },
    NOTIFY_TARGET_DOWN_MINUTES: { kind: "integer", min: 1 },
  },
} satisfies Spec;

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
