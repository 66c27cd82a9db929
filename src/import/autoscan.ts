import type { TriggerType } from "../config/types.js";
import { compilePattern, PatternError } from "../paths/go-regexp.js";
import { parseGoDuration } from "./go-duration.js";
import { emptyModel, sourceOf, type ImportModel, type ModelTarget } from "./model.js";
import { listAt, noteUnknownKeys, objectAt, readRules, stringAt, type JsonObject } from "./read-doc.js";

const ARR_TYPES: readonly TriggerType[] = ["sonarr", "radarr", "lidarr", "readarr"];
const TOP_KEYS = ["host", "port", "minimum-age", "scan-delay", "scan-stats", "anchors", "authentication", "triggers", "targets"];
/** autoscan's inotify trigger fired 10 s after the last event of a path. */
const INOTIFY_SETTLE_SECONDS = 10;

/** Reads an autoscan config.yml (autoscan.md §2.11) into the import model. */
export function readAutoscan(doc: JsonObject): ImportModel {
  const model = emptyModel();
  const notes = model.notes;
  noteUnknownKeys(doc, TOP_KEYS, "", notes);
  readListen(doc, model);
  // autoscan waits minimum-age (default 10m) after the last request for a folder; SERVER_SCAN_DELAY is the same debounce.
  const minimumAge = stringAt(doc["minimum-age"]) ?? "10m";
  const seconds = parseGoDuration(minimumAge);
  if (seconds === undefined) notes.push(`minimum-age: ${JSON.stringify(minimumAge)} is not a Go duration; not converted`);
  else model.scanDelay = seconds;
  if (doc["scan-delay"] !== undefined) notes.push("scan-delay: scanarr has no pause between scans; not converted");
  if (doc["scan-stats"] !== undefined) notes.push("scan-stats: scanarr shows its queue at /<SERVER_PASS>/api/queue instead; not converted");
  model.anchors = listAt(doc.anchors).flatMap((a) => stringAt(a) ?? []);
  const auth = objectAt(doc.authentication);
  const username = stringAt(auth.username);
  const password = stringAt(auth.password);
  if (username && password) model.login = { username, password };
  readTriggers(objectAt(doc.triggers), model);
  readTargets(objectAt(doc.targets), model);
  return model;
}

function readListen(doc: JsonObject, model: ImportModel): void {
  const port = doc.port ?? 3030;
  if (typeof port === "number" && Number.isInteger(port)) model.port = port;
  else model.notes.push(`port: ${JSON.stringify(port)} is not a port number; not converted`);
  const hosts = listAt(doc.host).flatMap((h) => stringAt(h) ?? []);
  if (hosts.length > 1) model.notes.push(`host: scanarr listens on one address; only ${JSON.stringify(hosts[0])} is converted`);
  const first = hosts[0];
  if (first === undefined || first === "") return;
  // An entry with a colon is a full address (host:port).
  const match = /^(.*):(\d+)$/.exec(first);
  model.ip = (match ? match[1] : first) || "0.0.0.0";
  if (match) model.port = Number(match[2]);
}

function readTriggers(triggers: JsonObject, model: ImportModel): void {
  const { notes } = model;
  noteUnknownKeys(triggers, [...ARR_TYPES, "manual", "a-train", "bernard", "inotify"], "triggers", notes);
  for (const type of ARR_TYPES) {
    listAt(triggers[type]).forEach((raw, i) => {
      const entry = objectAt(raw);
      const where = `triggers.${type}[${i}]`;
      const name = stringAt(entry.name) ?? type;
      if (name !== type) model.triggers.push({ name, type });
      readSource(model, name, entry, where);
    });
  }
  readSource(model, "manual", objectAt(triggers.manual), "triggers.manual");
  const aTrain = objectAt(triggers["a-train"]);
  readSource(model, "a-train", aTrain, "triggers.a-train");
  listAt(aTrain.drives).forEach((raw, i) => {
    const drive = objectAt(raw);
    const id = stringAt(drive.id);
    const where = `triggers.a-train.drives[${i}]`;
    if (id === undefined || id.includes("/")) return void notes.push(`${where}: no usable drive id; not converted`);
    // autoscan tried a drive's rules before the trigger's; scanarr's a-train/<drive> does the same.
    sourceOf(model, `a-train/${id}`).rules.push(...readRules(drive.rewrite, `${where}.rewrite`, notes));
  });
  if (triggers.bernard !== undefined)
    notes.push("triggers.bernard: use scanarr's drive monitoring (CLOUD, `scanarr authorize`); not converted");
  listAt(triggers.inotify).forEach((raw, i) => readInotify(objectAt(raw), `triggers.inotify[${i}]`, model));
}

/**
 * Every watched folder is scanarr's one source "watch": each path's rules
 * come before its entry's (autoscan's order), paths in the file's order, and
 * the includes of every entry go to SOURCES.watch.INCLUDE.
 */
function readInotify(entry: JsonObject, where: string, model: ImportModel): void {
  const { notes } = model;
  const watch = sourceOf(model, "watch");
  const entryRules = readRules(entry.rewrite, `${where}.rewrite`, notes);
  readPriority(model, "watch", entry, where);
  watch.include.push(...patternsAt(entry.include, `${where}.include`, notes));
  const exclude = listAt(entry.exclude).flatMap((e) => stringAt(e) ?? []);
  listAt(entry.paths).forEach((raw, j) => {
    const item = objectAt(raw);
    const at = `${where}.paths[${j}]`;
    const path = stringAt(item.path);
    if (path === undefined) return void notes.push(`${at}: no path; not converted`);
    watch.include.push(...patternsAt(item.include, `${at}.include`, notes));
    watch.rules.push(...readRules(item.rewrite, `${at}.rewrite`, notes));
    const ignore = [...exclude, ...listAt(item.exclude).flatMap((e) => stringAt(e) ?? [])].filter((pattern) =>
      compiles(pattern, `${at}.exclude`, notes),
    );
    model.watches.push({ paths: [path], mode: "events", minAge: INOTIFY_SETTLE_SECONDS, ignore });
  });
  watch.rules.push(...entryRules);
}

function readTargets(targets: JsonObject, model: ImportModel): void {
  noteUnknownKeys(targets, ["plex", "jellyfin", "emby", "autoscan"], "targets", model.notes);
  for (const type of ["plex", "jellyfin", "emby", "autoscan"] as const) {
    const entries = listAt(targets[type]);
    entries.forEach((raw, i) => {
      const entry = objectAt(raw);
      const where = `targets.${type}[${i}]`;
      const url = stringAt(entry.url);
      if (url === undefined) return void model.notes.push(`${where}: no url; not converted`);
      const target: ModelTarget = {
        type,
        name: entries.length > 1 ? `${type}${i + 1}` : type,
        url,
        rules: readRules(entry.rewrite, `${where}.rewrite`, model.notes),
      };
      const token = stringAt(entry.token);
      if (token !== undefined) target.token = token;
      const username = stringAt(entry.username);
      const password = stringAt(entry.password);
      if (username !== undefined) target.username = username;
      if (password !== undefined) target.password = password;
      model.targets.push(target);
    });
  }
}

/** A trigger's rewrites and priority become its SOURCES entry. */
function readSource(model: ImportModel, name: string, entry: JsonObject, where: string): void {
  sourceOf(model, name).rules.push(...readRules(entry.rewrite, `${where}.rewrite`, model.notes));
  readPriority(model, name, entry, where);
}

/** autoscan delivers the higher priority first; scanarr the lower number, so 5 becomes -5. */
function readPriority(model: ImportModel, name: string, entry: JsonObject, where: string): void {
  const priority = entry.priority;
  if (priority === undefined || priority === 0) return;
  if (typeof priority !== "number" || !Number.isInteger(priority))
    return void model.notes.push(`${where}.priority: ${JSON.stringify(priority)} is not a whole number; not converted`);
  const source = sourceOf(model, name);
  if (source.priority !== undefined && source.priority !== -priority) {
    model.notes.push(
      `${where}.priority: ${priority} differs from another entry of the same scanarr source "${name}"; the first (${-source.priority}) is kept`,
    );
    return;
  }
  source.priority = -priority;
}

function patternsAt(value: unknown, where: string, notes: string[]): string[] {
  return listAt(value)
    .flatMap((e) => stringAt(e) ?? [])
    .filter((pattern) => compiles(pattern, where, notes, true));
}

/** WATCH.IGNORE is read as JavaScript as it stands; SOURCES patterns with Go's syntax translated (as for rewrites). */
function compiles(pattern: string, where: string, notes: string[], translated = false): boolean {
  try {
    if (translated) compilePattern(pattern, where);
    else new RegExp(pattern);
    return true;
  } catch (error) {
    const why =
      error instanceof PatternError ? error.message : `${where}: ${JSON.stringify(pattern)} is not a JavaScript regular expression`;
    notes.push(`${why}; not converted`);
    return false;
  }
}
