import { isIP } from "node:net";
import { RESERVED_TRIGGER_NAMES } from "../config/compat-rules.js";
import { defaultConfig } from "../config/defaults.js";
import { WATCH_DEFAULTS } from "../watch/config.js";
import { composeMappings } from "./mappings.js";
import type { ImportModel, ModelTarget } from "./model.js";
import { planSources } from "./sources.js";
import { isSourceName } from "../config/source-rules.js";

export interface BuiltConfig {
  /** The complete scanarr config to write. */
  config: Record<string, unknown>;
  /** What was converted, one line each, for the report. */
  converted: string[];
  /** What was not, one line each with where it was. */
  notConverted: string[];
}

export interface BuildOptions {
  pass: string;
  /** argon2id hash of the imported login's password. */
  hashPassword(password: string): Promise<string>;
}

/**
 * The scanarr config equivalent to the model: every default, then what the
 * other tool set. The first Plex target becomes the flat PLEX_* keys (the
 * implicit first target), every other target a TARGETS entry with its own
 * PATH_MAPPINGS.
 */
export async function buildConfig(model: ImportModel, options: BuildOptions): Promise<BuiltConfig> {
  const notes = [...model.notes];
  const converted: string[] = [];
  const config: Record<string, unknown> = { ...defaultConfig(options.pass) };
  const primary = model.targets.find((t) => t.type === "plex");
  const triggers = model.triggers.filter((t) => {
    const ok = /^[A-Za-z0-9._~-]+$/.test(t.name) && !RESERVED_TRIGGER_NAMES.includes(t.name);
    if (!ok) notes.push(`trigger ${JSON.stringify(t.name)}: not usable as /triggers/<NAME>; not converted`);
    return ok;
  });
  const TRIGGERS = triggers.map((t) => ({ NAME: t.name, TYPE: t.type }));
  const planned = planSources(model, primary, (name) => isSourceName(name, { TRIGGERS }));
  const mappings = composeMappings(
    { inboundRules: planned.inboundRules, targets: model.targets.filter((t) => !planned.verbatimTargets.has(t)) },
    primary,
  );
  notes.push(...mappings.notes, ...planned.notes);
  config.SERVER_PATH_MAPPINGS = mappings.server;
  converted.push(`SERVER_PATH_MAPPINGS: ${Object.keys(mappings.server).length} media-server prefix(es)`);
  if (model.ip !== undefined) {
    if (isIP(model.ip) !== 0 || model.ip === "localhost") config.SERVER_IP = model.ip;
    else notes.push(`host: ${JSON.stringify(model.ip)} is not an IP address; scanarr listens on ${String(config.SERVER_IP)}`);
  }
  if (model.port !== undefined) config.SERVER_PORT = model.port;
  converted.push(
    `SERVER_IP:SERVER_PORT ${String(config.SERVER_IP)}:${String(config.SERVER_PORT)} (same port, so only the host changes in URLs)`,
  );
  if (model.scanDelay !== undefined) {
    config.SERVER_SCAN_DELAY = model.scanDelay;
    converted.push(`SERVER_SCAN_DELAY: ${model.scanDelay} s`);
  }
  config.SERVER_ALLOW_MANUAL_SCAN = true;
  if (model.login) {
    config.SERVER_USERNAME = model.login.username;
    config.SERVER_PASSWORD_HASH = await options.hashPassword(model.login.password);
    converted.push(`SERVER_USERNAME ${model.login.username} and an argon2id hash of its password (HTTP Basic on /triggers/ keeps working)`);
  }
  config.TRIGGERS = TRIGGERS;
  if (triggers.length > 0) converted.push(`TRIGGERS: ${triggers.map((t) => `/triggers/${t.name} (${t.type})`).join(", ")}`);
  config.WATCH = model.watches.map((w) => ({
    PATHS: w.paths,
    MODE: w.mode,
    MIN_AGE: w.minAge ?? WATCH_DEFAULTS.MIN_AGE,
    IGNORE: w.ignore,
  }));
  if (model.watches.length > 0) converted.push(`WATCH: ${model.watches.flatMap((w) => w.paths.map((p) => `${p} (${w.mode})`)).join(", ")}`);
  config.SOURCES = planned.sources;
  converted.push(...planned.converted);
  if (model.anchors.length > 0) {
    config.ANCHORS = model.anchors;
    converted.push(`ANCHORS: ${model.anchors.join(", ")}`);
  }
  if (primary) {
    config.PLEX_LOCAL_URL = primary.url;
    config.PLEX_TOKEN = primary.token ?? "";
    converted.push(`PLEX_LOCAL_URL ${primary.url} and PLEX_TOKEN (the first Plex target)`);
  }
  const others = model.targets.filter((t) => t !== primary);
  if (others.length > 0) {
    config.TARGETS = others.map((t) => {
      const entry = targetEntry(t, mappings.targets.get(t) ?? {});
      const rules = planned.verbatimTargets.get(t);
      if (rules) entry.REWRITES = rules.map((r) => ({ FROM: r.from, TO: r.to }));
      return entry;
    });
    converted.push(`TARGETS: ${others.map((t) => `${t.name} (${t.type})`).join(", ")}`);
  }
  return { config, converted, notConverted: notes };
}

/** A TARGETS entry in the shape of the multi-server issue (TYPE, NAME, URL, TOKEN or USERNAME/PASSWORD, PATH_MAPPINGS, ENABLED). */
function targetEntry(target: ModelTarget, mappings: Record<string, string[]>): Record<string, unknown> {
  const entry: Record<string, unknown> = { TYPE: target.type, NAME: target.name, URL: target.url };
  if (target.type !== "autoscan") entry.TOKEN = target.token ?? "";
  if (target.username !== undefined) entry.USERNAME = target.username;
  if (target.password !== undefined) entry.PASSWORD = target.password;
  entry.PATH_MAPPINGS = mappings;
  entry.ENABLED = true;
  return entry;
}
