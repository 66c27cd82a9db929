import type { TriggerType } from "../config/types.js";
import { TARGET_TYPES } from "../domain.js";
import { emptyModel, sourceOf, type ImportModel, type ModelTarget, type Rule } from "./model.js";
import { toPrefix } from "./prefix-rule.js";
import { listAt, noteUnknownKeys, objectAt, readRules, stringAt, type JsonObject } from "./read-doc.js";
import { compilePattern, PatternError } from "../paths/go-regexp.js";

const TRIGGER_TYPES: Record<string, TriggerType> = {
  sonarr: "sonarr",
  radarr: "radarr",
  lidarr: "lidarr",
  readarr: "readarr",
  manual: "manual",
  bazarr: "manual",
  autoscan: "manual",
};
/** autopulse's defaults: port 2875, 60 s before an event is processed. */
const DEFAULT_PORT = 2875;
const DEFAULT_WAIT = 60;

/** Reads an autopulse config (autoscan.md §4.8: app, auth, opts, anchors, named triggers and targets). */
export function readAutopulse(doc: JsonObject): ImportModel {
  const model = emptyModel();
  const { notes } = model;
  noteUnknownKeys(doc, ["app", "auth", "opts", "anchors", "triggers", "targets", "webhooks"], "", notes);
  const app = objectAt(doc.app);
  model.port = typeof app.port === "number" ? app.port : DEFAULT_PORT;
  const host = stringAt(app.hostname);
  if (host !== undefined) model.ip = host;
  for (const key of Object.keys(app)) if (key !== "port" && key !== "hostname") notes.push(`app.${key}: not converted`);
  readAuth(objectAt(doc.auth), model);
  const opts = objectAt(doc.opts);
  model.scanDelay = typeof opts.default_timer_wait === "number" ? opts.default_timer_wait : DEFAULT_WAIT;
  for (const key of Object.keys(opts)) if (key !== "default_timer_wait") notes.push(`opts.${key}: not converted`);
  model.anchors = listAt(doc.anchors).flatMap((a) => stringAt(a) ?? []);
  for (const [name, raw] of Object.entries(objectAt(doc.triggers))) readTrigger(name, objectAt(raw), model);
  for (const [name, raw] of Object.entries(objectAt(doc.targets))) readTarget(name, objectAt(raw), model);
  if (doc.webhooks !== undefined) notes.push("webhooks: notifications are not part of scanarr's config yet; not converted");
  return model;
}

function readAuth(auth: JsonObject, model: ImportModel): void {
  const username = stringAt(auth.username);
  const password = stringAt(auth.password);
  if (auth.enabled === false)
    return void model.notes.push("auth.enabled: false — scanarr's /triggers/ need a login or /<SERVER_PASS>/ in the URL");
  if (username && password) model.login = { username, password };
  else model.notes.push("auth: autopulse's default admin/password login is not carried over; set one with `scanarr passwd`");
}

function readTrigger(name: string, entry: JsonObject, model: ImportModel): void {
  const where = `triggers.${name}`;
  const type = stringAt(entry.type) ?? "";
  const rules = readDirectRules(entry.rewrite, `${where}.rewrite`, model.notes);
  if (entry.excludes !== undefined)
    model.notes.push(`${where}.excludes: scanarr delivers every scan to every target (no per-source target list); not converted`);
  if (entry.event_timers !== undefined)
    model.notes.push(`${where}.event_timers: scanarr's DELAY is per source, not per event type; not converted`);
  if (type === "notify") return readNotify(entry, where, rules, model);
  const mapped = TRIGGER_TYPES[type];
  if (mapped === undefined)
    return void model.notes.push(`${where}: trigger type ${JSON.stringify(type)} has no scanarr equivalent; not converted`);
  if (name === "manual" && mapped !== "manual")
    return void model.notes.push(`${where}: "manual" is scanarr's own manual trigger; rename this ${type} trigger`);
  const builtIn = name === mapped;
  if (!builtIn) model.triggers.push({ name, type: mapped });
  readSourceSettings(model, name, entry, where, rules);
}

/** A trigger's rewrites, `filter` and `timer.wait` become its SOURCES entry (the trigger's name is scanarr's source name). */
function readSourceSettings(model: ImportModel, name: string, entry: JsonObject, where: string, rules: Rule[]): void {
  const source = sourceOf(model, name);
  source.rules.push(...rules);
  const filter = objectAt(entry.filter);
  for (const key of ["include", "exclude"] as const) {
    const patterns = listAt(filter[key]).flatMap((p) => stringAt(p) ?? []);
    for (const pattern of patterns) {
      try {
        compilePattern(pattern, `${where}.filter.${key}`);
        source[key].push(pattern);
      } catch (error) {
        if (!(error instanceof PatternError)) throw error;
        model.notes.push(`${error.message}; not converted`);
      }
    }
  }
  const timer = objectAt(entry.timer);
  if (timer.wait === undefined) return;
  if (typeof timer.wait === "number" && timer.wait >= 0) source.delay = timer.wait;
  else model.notes.push(`${where}.timer.wait: ${JSON.stringify(timer.wait)} is not a number of seconds; not converted`);
}

function readNotify(entry: JsonObject, where: string, rules: Rule[], model: ImportModel): void {
  const paths = listAt(entry.paths).flatMap((p) => stringAt(p) ?? []);
  if (paths.length === 0) return void model.notes.push(`${where}: no paths; not converted`);
  readSourceSettings(model, "watch", entry, where, rules);
  if (entry.recursive === false) model.notes.push(`${where}.recursive: scanarr always watches sub-folders; not converted`);
  if (entry.filters !== undefined) model.notes.push(`${where}.filters: WATCH has ignore patterns only; not converted`);
  model.watches.push({ paths, mode: stringAt(entry.backend) === "polling" ? "poll" : "events", ignore: [] });
}

/** autopulse's target types scanarr has, and the keys each converts beside `type` and `rewrite`. */
const TARGET_KEYS: Partial<Record<string, readonly string[]>> = {
  plex: ["url", "token"],
  jellyfin: ["url", "token"],
  emby: ["url", "token"],
  audiobookshelf: ["url", "token", "auth"],
  fileflows: ["url"],
};

function readTarget(name: string, entry: JsonObject, model: ImportModel): void {
  const where = `targets.${name}`;
  const type = stringAt(entry.type) ?? "";
  const keys = TARGET_KEYS[type];
  if (keys === undefined || !isTargetType(type)) {
    return void model.notes.push(`${where}: target type ${JSON.stringify(type)} has no scanarr equivalent; not converted`);
  }
  const url = stringAt(entry.url);
  if (url === undefined) return void model.notes.push(`${where}: no url; not converted`);
  const target: ModelTarget = { type, name, url, rules: readDirectRules(entry.rewrite, `${where}.rewrite`, model.notes) };
  const token = stringAt(entry.token);
  if (token !== undefined) target.token = token;
  if (type === "audiobookshelf" && !readLogin(objectAt(entry.auth), target, where, model.notes)) return;
  for (const key of Object.keys(entry))
    if (key !== "type" && key !== "rewrite" && !keys.includes(key)) model.notes.push(`${where}.${key}: not converted`);
  model.targets.push(target);
}

function isTargetType(type: string): type is ModelTarget["type"] {
  return (TARGET_TYPES as readonly string[]).includes(type);
}

/**
 * Audiobookshelf's `auth` (the user autopulse logs in as) becomes USERNAME
 * and PASSWORD; false when the entry has no credential at all, which
 * Audiobookshelf would refuse.
 */
function readLogin(auth: JsonObject, target: ModelTarget, where: string, notes: string[]): boolean {
  const username = stringAt(auth.username);
  const password = stringAt(auth.password);
  if (target.token === undefined && auth.enabled !== false && username && password) {
    target.username = username;
    target.password = password;
  }
  if (target.token !== undefined || target.username !== undefined) return true;
  notes.push(`${where}: no token and no auth username and password (Audiobookshelf answers nothing without one); not converted`);
  return false;
}

/**
 * autopulse applies every rule in turn, each to the previous one's output.
 * That equals scanarr's first match only when no rule's result can be
 * matched by another rule, which can be told for prefix swaps only; a single
 * rule is always the same.
 */
function readDirectRules(value: unknown, where: string, notes: string[]): Rule[] {
  const rules = readRules(value, where, notes);
  const prefixes = rules.map(toPrefix);
  if (rules.length > 1 && prefixes.some((p) => "problem" in p)) {
    notes.push(
      `${where}: autopulse applies every rule in turn to the previous one's result, scanarr the first that matches; for regular expressions the two cannot be shown to agree, so these rules are not converted (write them as one SOURCES REWRITES list by hand)`,
    );
    return [];
  }
  const chained = prefixes.some((a, i) => "to" in a && prefixes.some((b, j) => i !== j && "from" in b && a.to.startsWith(b.from)));
  if (!chained) return rules;
  notes.push(`${where}: these rules feed into each other (autopulse applies them in sequence); not converted`);
  return [];
}
