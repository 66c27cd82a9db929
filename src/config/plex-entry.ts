import { PLEX_TARGET_NAMES, withTargetDefaults } from "./defaults.js";
import type { AnalyzeType, Config, ScanMethod, TargetConfig } from "./types.js";

/**
 * A Plex TARGETS entry as the loader leaves it: every after-scan setting
 * given, so nothing below the loader reads a flat PLEX_* key. An entry the
 * user wrote takes, for each field it leaves unset, the flat key of the same
 * name (DATABASE_PATH: none, the API is asked), the confirmation's timing and
 * the API method; the entry the flat keys make takes them all.
 */
export interface PlexEntry extends TargetConfig {
  TYPE: "plex";
  SCAN_METHOD: ScanMethod;
  DATABASE_PATH: string;
  CONFIRM_SCANS: boolean;
  CONFIRM_POLL_INTERVAL: number;
  CONFIRM_MAX_WAIT: number;
  CONFIRM_RESCAN_DELAY: number;
  ANALYZE_TYPE: AnalyzeType;
  ANALYZE_DIRECTORY: boolean;
  EMPTY_TRASH: boolean;
  EMPTY_TRASH_MAX_FILES: number;
  EMPTY_TRASH_ZERO_DELETED: boolean;
}

/** The flat key each field of the entry the flat keys make came from: messages name the key as the user wrote it. */
export const FLAT_PLEX_KEYS = {
  URL: "PLEX_LOCAL_URL",
  TOKEN: "PLEX_TOKEN",
  SCAN_METHOD: "PLEX_SCAN_METHOD",
  DATABASE_PATH: "PLEX_DATABASE_PATH",
  CONFIRM_SCANS: "PLEX_CONFIRM_SCANS",
  CONFIRM_POLL_INTERVAL: "PLEX_CONFIRM_POLL_INTERVAL",
  CONFIRM_MAX_WAIT: "PLEX_CONFIRM_MAX_WAIT",
  CONFIRM_RESCAN_DELAY: "PLEX_CONFIRM_RESCAN_DELAY",
  ANALYZE_TYPE: "PLEX_ANALYZE_TYPE",
  ANALYZE_DIRECTORY: "PLEX_ANALYZE_DIRECTORY",
  EMPTY_TRASH: "PLEX_EMPTY_TRASH",
  EMPTY_TRASH_MAX_FILES: "PLEX_EMPTY_TRASH_MAX_FILES",
  EMPTY_TRASH_ZERO_DELETED: "PLEX_EMPTY_TRASH_ZERO_DELETED",
} as const satisfies Partial<Record<keyof PlexEntry, keyof Config>>;

type SharedField = "CONFIRM_POLL_INTERVAL" | "CONFIRM_MAX_WAIT" | "CONFIRM_RESCAN_DELAY";
type FallbackField =
  | "CONFIRM_SCANS"
  | "ANALYZE_TYPE"
  | "ANALYZE_DIRECTORY"
  | "EMPTY_TRASH"
  | "EMPTY_TRASH_MAX_FILES"
  | "EMPTY_TRASH_ZERO_DELETED";

/** Marks the entry the flat keys made; a symbol, so no listing or JSON of the entry shows it. */
const FROM_FLAT_KEYS = Symbol("from the flat PLEX_* keys");

/**
 * The loaded config: with PLEX_ENABLED, the flat PLEX_* keys become the first
 * TARGETS entry (named "plex", or "plex-scanner" with the scanner method, as
 * before), and every Plex entry gets its after-scan settings filled in.
 * PLEX_ENABLED is false afterwards (the flat keys define no further target),
 * so a config given twice is changed once. Assumes a validated config.
 */
export function withPlexEntry(config: Config): Config {
  const entries = config.TARGETS.map((entry) => (entry.TYPE === "plex" ? filledEntry(config, entry) : entry));
  if (!config.PLEX_ENABLED) return { ...config, TARGETS: entries };
  return { ...config, PLEX_ENABLED: false, TARGETS: [flatPlexEntry(config), ...entries] };
}

/** The entry the flat PLEX_* keys make (whether or not PLEX_ENABLED). */
export function flatPlexEntry(config: Config): PlexEntry {
  const entry: PlexEntry = {
    ...withTargetDefaults({ TYPE: "plex", NAME: PLEX_TARGET_NAMES[config.PLEX_SCAN_METHOD] }),
    TYPE: "plex",
    URL: config.PLEX_LOCAL_URL,
    TOKEN: config.PLEX_TOKEN,
    SCAN_METHOD: config.PLEX_SCAN_METHOD,
    DATABASE_PATH: config.PLEX_DATABASE_PATH,
    ...sharedOf(config),
    ...fallbacksOf(config, {}),
  };
  Object.defineProperty(entry, FROM_FLAT_KEYS, { value: true, enumerable: true });
  return entry;
}

/** A Plex entry's settings; an entry the loader did not fill (a test's own) takes the defaults the loader would. */
export function plexEntryOf(entry: TargetConfig, defaults: Config): PlexEntry {
  if (isFilled(entry)) return entry;
  return filledEntry(defaults, entry);
}

/**
 * The key a message names for one field of the loaded TARGETS[index]: the
 * flat key for the entry the flat keys made (the field's own name for one it
 * has no key for, such as PATH_MAPPINGS), else the field at the entry's place
 * in the user's TARGETS (`TARGETS[2].URL`).
 */
export function writtenKeyOf(config: Pick<Config, "TARGETS">, index: number, field: string): string {
  const entry = config.TARGETS[index];
  if (entry && isFromFlatKeys(entry)) return (FLAT_PLEX_KEYS as Record<string, string>)[field] ?? field;
  return `${writtenPathOf(config, index)}.${field}`;
}

/** Where the loaded TARGETS[index] is in the user's file (`TARGETS[2]`); undefined for the entry the flat keys made. */
export function writtenPathOf(config: Pick<Config, "TARGETS">, index: number): string | undefined {
  const entry = config.TARGETS[index];
  if (entry && isFromFlatKeys(entry)) return undefined;
  const offset = config.TARGETS[0] && isFromFlatKeys(config.TARGETS[0]) ? 1 : 0;
  return `TARGETS[${index - offset}]`;
}

/** Whether the entry is the one the flat PLEX_* keys made. */
export function isFromFlatKeys(entry: TargetConfig): boolean {
  return (entry as unknown as Record<symbol, unknown>)[FROM_FLAT_KEYS] === true;
}

function filledEntry(config: Config, entry: TargetConfig): PlexEntry {
  const own = entry as Partial<PlexEntry>;
  return {
    ...entry,
    TYPE: "plex",
    SCAN_METHOD: own.SCAN_METHOD ?? "api",
    DATABASE_PATH: own.DATABASE_PATH ?? "",
    ...sharedOf(config),
    ...fallbacksOf(config, own),
  };
}

function isFilled(entry: TargetConfig): entry is PlexEntry {
  const own = entry as Partial<PlexEntry>;
  return entry.TYPE === "plex" && own.SCAN_METHOD !== undefined && own.CONFIRM_POLL_INTERVAL !== undefined;
}

function sharedOf(config: Config): Pick<PlexEntry, SharedField> {
  return {
    CONFIRM_POLL_INTERVAL: config.PLEX_CONFIRM_POLL_INTERVAL,
    CONFIRM_MAX_WAIT: config.PLEX_CONFIRM_MAX_WAIT,
    CONFIRM_RESCAN_DELAY: config.PLEX_CONFIRM_RESCAN_DELAY,
  };
}

function fallbacksOf(config: Config, own: Partial<PlexEntry>): Pick<PlexEntry, FallbackField> {
  return {
    CONFIRM_SCANS: own.CONFIRM_SCANS ?? config.PLEX_CONFIRM_SCANS,
    ANALYZE_TYPE: own.ANALYZE_TYPE ?? config.PLEX_ANALYZE_TYPE,
    ANALYZE_DIRECTORY: own.ANALYZE_DIRECTORY ?? config.PLEX_ANALYZE_DIRECTORY,
    EMPTY_TRASH: own.EMPTY_TRASH ?? config.PLEX_EMPTY_TRASH,
    EMPTY_TRASH_MAX_FILES: own.EMPTY_TRASH_MAX_FILES ?? config.PLEX_EMPTY_TRASH_MAX_FILES,
    EMPTY_TRASH_ZERO_DELETED: own.EMPTY_TRASH_ZERO_DELETED ?? config.PLEX_EMPTY_TRASH_ZERO_DELETED,
  };
}
