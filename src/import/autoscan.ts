import type { TriggerType } from "../config/types.js";
import { parseGoDuration } from "./go-duration.js";
import { emptyModel, type ImportModel, type ModelTarget } from "./model.js";
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
      model.inboundRules.push(...readRules(entry.rewrite, `${where}.rewrite`, notes));
      notePriority(entry, where, notes);
    });
  }
  const manual = objectAt(triggers.manual);
  model.inboundRules.push(...readRules(manual.rewrite, "triggers.manual.rewrite", notes));
  notePriority(manual, "triggers.manual", notes);
  const aTrain = objectAt(triggers["a-train"]);
  model.inboundRules.push(...readRules(aTrain.rewrite, "triggers.a-train.rewrite", notes));
  listAt(aTrain.drives).forEach((drive, i) => {
    model.inboundRules.push(...readRules(objectAt(drive).rewrite, `triggers.a-train.drives[${i}].rewrite`, notes));
  });
  if (triggers.bernard !== undefined)
    notes.push("triggers.bernard: use scanarr's drive monitoring (CLOUD, `scanarr authorize`); not converted");
  listAt(triggers.inotify).forEach((raw, i) => readInotify(objectAt(raw), `triggers.inotify[${i}]`, model));
}

function readInotify(entry: JsonObject, where: string, model: ImportModel): void {
  const { notes } = model;
  model.inboundRules.push(...readRules(entry.rewrite, `${where}.rewrite`, notes));
  if (listAt(entry.include).length > 0) notes.push(`${where}.include: WATCH has ignore patterns only; not converted`);
  const exclude = listAt(entry.exclude).flatMap((e) => stringAt(e) ?? []);
  listAt(entry.paths).forEach((raw, j) => {
    const item = objectAt(raw);
    const at = `${where}.paths[${j}]`;
    const path = stringAt(item.path);
    if (path === undefined) return void notes.push(`${at}: no path; not converted`);
    if (listAt(item.include).length > 0) notes.push(`${at}.include: WATCH has ignore patterns only; not converted`);
    model.inboundRules.push(...readRules(item.rewrite, `${at}.rewrite`, notes));
    const ignore = [...exclude, ...listAt(item.exclude).flatMap((e) => stringAt(e) ?? [])].filter((pattern) =>
      compiles(pattern, at, notes),
    );
    model.watches.push({ paths: [path], mode: "events", minAge: INOTIFY_SETTLE_SECONDS, ignore });
  });
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

function notePriority(entry: JsonObject, where: string, notes: string[]): void {
  if (entry.priority !== undefined && entry.priority !== 0) {
    notes.push(`${where}.priority: scanarr ranks scans by folder (SERVER_SCAN_PRIORITIES), not by trigger; not converted`);
  }
}

function compiles(pattern: string, where: string, notes: string[]): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    notes.push(`${where}.exclude: ${JSON.stringify(pattern)} is not a JavaScript regular expression; not converted`);
    return false;
  }
}
