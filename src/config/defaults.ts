import { randomBytes } from "node:crypto";
import { CONFIG_SCHEMA } from "./schema.js";
import { TARGET_ENTRY } from "./schema-parts.js";
import { defaultOf } from "./spec.js";
import type { Config, ScanMethod, TargetConfig } from "./types.js";

export { DEFAULT_VIDEO_EXTENSIONS, GOOGLE_API_URL, GOOGLE_AUTH_URL, GOOGLE_TOKEN_URL } from "./schema-parts.js";

/** A fresh random SERVER_PASS: 32 hex characters, as plex_autoscan generates. */
export function generateServerPass(): string {
  return randomBytes(16).toString("hex");
}

/**
 * The complete default configuration, read from the schema. `pass` is
 * injected so a first run writes a random secret while tests can pin it.
 */
export function defaultConfig(pass: string = generateServerPass()): Config {
  return { ...(defaultOf(CONFIG_SCHEMA) as Config), SERVER_PASS: pass };
}

/** Names of the Plex target the flat PLEX_* keys define, by PLEX_SCAN_METHOD (as plex_autoscan users know them). */
export const PLEX_TARGET_NAMES: Readonly<Record<ScanMethod, string>> = { api: "plex", scanner: "plex-scanner" };

/** A TARGETS entry as written, with the common fields' defaults filled in (the fields of one TYPE only stay as written). */
export function withTargetDefaults(entry: Pick<TargetConfig, "TYPE" | "NAME"> & Partial<TargetConfig>): TargetConfig {
  const defaults = defaultOf(TARGET_ENTRY) as Record<string, unknown>;
  const given = Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined));
  return { ...defaults, ...given } as TargetConfig;
}
