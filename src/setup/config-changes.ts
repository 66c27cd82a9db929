import type { JsonChange } from "../config/json-edit.js";
import type { Config } from "../config/types.js";
import type { MediaServerChoice } from "./media-server-step.js";
import type { MappingsChoice } from "./mappings-step.js";
import type { PlexChoice } from "./plex-step.js";

/** Everything the set-up decided, ready to become config changes. */
export interface SetupAnswers {
  plex: PlexChoice;
  mediaServers: MediaServerChoice[];
  mappings: MappingsChoice;
}

/**
 * The config changes the answers make, in the config's own form: the flat
 * PLEX_LOCAL_URL and PLEX_TOKEN, SERVER_PATH_MAPPINGS entries (app prefixes
 * added to their Plex key and taken from any other key), and a TARGETS
 * entry per Jellyfin/Emby server (updated in place when one of that type
 * exists). `fresh`: the file is new, so the starter's example mappings go.
 * Values equal to what is there make no edit (editJson skips them).
 */
export function planConfigChanges(current: Config, answers: SetupAnswers, fresh: boolean): JsonChange[] {
  const changes: JsonChange[] = [
    { path: ["PLEX_LOCAL_URL"], value: answers.plex.url },
    { path: ["PLEX_TOKEN"], value: answers.plex.token },
  ];
  const mappings = mergeMappings(fresh ? {} : current.SERVER_PATH_MAPPINGS, answers.mappings.server);
  for (const key of Object.keys(current.SERVER_PATH_MAPPINGS)) {
    if (!(key in mappings)) changes.push({ path: ["SERVER_PATH_MAPPINGS", key], value: undefined });
  }
  for (const [key, prefixes] of Object.entries(mappings)) changes.push({ path: ["SERVER_PATH_MAPPINGS", key], value: prefixes });
  let appended = 0;
  for (const server of answers.mediaServers) {
    const index = current.TARGETS.findIndex((t) => t.TYPE === server.type && t.NAME === server.name);
    const existing = current.TARGETS[index];
    const pathMappings = mergeMappings(existing?.PATH_MAPPINGS ?? {}, answers.mappings.targets[server.name] ?? {});
    if (existing) {
      changes.push({ path: ["TARGETS", index, "URL"], value: server.url });
      changes.push({ path: ["TARGETS", index, "TOKEN"], value: server.token });
      changes.push({ path: ["TARGETS", index, "PATH_MAPPINGS"], value: pathMappings });
      continue;
    }
    const entry = { TYPE: server.type, NAME: server.name, URL: server.url, TOKEN: server.token, PATH_MAPPINGS: pathMappings };
    changes.push(current.TARGETS.length + appended === 0 ? { path: ["TARGETS"], value: [entry] } : { path: ["TARGETS", -1], value: entry });
    appended++;
  }
  return changes;
}

/**
 * `current` with each of `found`'s prefixes under its key: a prefix listed
 * under another key moves (one prefix, one place), and a key left with no
 * prefix is dropped.
 */
export function mergeMappings(
  current: Readonly<Record<string, readonly string[]>>,
  found: Readonly<Record<string, readonly string[]>>,
): Record<string, string[]> {
  const moved = new Set(Object.values(found).flat());
  const merged: Record<string, string[]> = {};
  for (const [key, prefixes] of Object.entries(current)) {
    const kept = prefixes.filter((p) => !moved.has(p) || (found[key] ?? []).includes(p));
    if (kept.length > 0 || !(key in found)) merged[key] = kept;
  }
  for (const [key, prefixes] of Object.entries(found)) {
    const list = merged[key] ?? [];
    for (const prefix of prefixes) if (!list.includes(prefix)) list.push(prefix);
    merged[key] = list;
  }
  for (const [key, list] of Object.entries(merged)) if (list.length === 0 && (current[key]?.length ?? 0) > 0) delete merged[key];
  return merged;
}
