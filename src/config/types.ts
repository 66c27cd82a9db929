import type { CONFIG_SCHEMA } from "./schema.js";
import type { Infer } from "./spec.js";

// Every type here is inferred from the schema (config/schema.ts): a key is declared there once.

/** The effective configuration every subcommand receives. */
export type Config = Infer<typeof CONFIG_SCHEMA>;

export type CloudConfig = Config["CLOUD"];
export type CloudAllowed = CloudConfig["ALLOWED"];
export type ScanMethod = Config["PLEX_SCAN_METHOD"];
export type AnalyzeType = Config["PLEX_ANALYZE_TYPE"];
/** A hook: a string run with `/bin/sh -c`, or an argv array run directly. */
export type HookCommandSetting = Config["RUN_COMMAND_BEFORE_SCAN"];
export type RcloneConfig = Config["RCLONE"];
export type RcCacheRefreshConfig = RcloneConfig["RC_CACHE_REFRESH"];
export type RewriteEntry = Config["SERVER_PATH_REWRITES"][number];
export type SourceEntry = Config["SOURCES"][string];
export type TriggerEntry = Config["TRIGGERS"][number];
/** What a name under /triggers/<NAME> accepts: one *arr's webhook JSON, or query paths (`?path=`, `?dir=`). */
export type TriggerType = TriggerEntry["TYPE"];
/** One filesystem watch; optional keys take the defaults in src/watch/config.ts. */
export type WatchEntry = Config["WATCH"][number];
/** One NOTIFICATIONS entry; an absent TYPE is guessed from the URL and absent EVENTS mean all (src/notify/settings.ts). */
export type NotificationEntry = Config["NOTIFICATIONS"][number];
export type NotificationType = NonNullable<NotificationEntry["TYPE"]>;
export type NotificationEvent = NonNullable<NotificationEntry["EVENTS"]>[number];

/**
 * One entry of TARGETS: the fields every TYPE takes, typed, and a TYPE's own
 * fields (declared in its `targets/<type>/config.ts`, validated by the
 * schema) read through that folder's `EntryOf` type.
 */
export type TargetConfig = Config["TARGETS"][number] & { readonly [own: string]: unknown };
