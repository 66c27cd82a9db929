import { PLEX_TARGET_NAMES } from "./defaults.js";
import { checkPathMappings } from "./mapping-rules.js";
import type { TargetKinds } from "./target-kind.js";
import type { TargetType } from "../domain.js";
import type { Config } from "./types.js";

/**
 * Names unique across all targets, each entry's own rules (its TYPE's, from
 * `kinds`), no field of another TYPE, and at least one target.
 */
export function checkTargets(config: Config, kinds: TargetKinds): string[] {
  const problems: string[] = [];
  const names = new Map<string, string>();
  if (config.PLEX_ENABLED) names.set(PLEX_TARGET_NAMES[config.PLEX_SCAN_METHOD], "the Plex target of the PLEX_* keys");
  config.TARGETS.forEach((entry, i) => {
    const at = `TARGETS[${i}]`;
    const owner = names.get(entry.NAME.toLowerCase());
    if (owner) problems.push(`${at}.NAME: "${entry.NAME}" is already the name of ${owner}; names must be unique`);
    else names.set(entry.NAME.toLowerCase(), at);
    problems.push(...kinds[entry.TYPE].check(entry, at));
    problems.push(...checkPathMappings(entry.PATH_MAPPINGS, `${at}.PATH_MAPPINGS`));
    for (const [key, types] of ownersOf(kinds)) {
      if (types.includes(entry.TYPE) || (entry as unknown as Record<string, unknown>)[key] === undefined) continue;
      const [only] = types;
      const note = types.length === 1 && only ? kinds[only].onlyNote : undefined;
      const named = types.map((type) => `"${type}"`);
      const who = named.length === 1 ? named[0] : `${named.slice(0, -1).join(", ")} or ${named.at(-1)}`;
      problems.push(`${at}.${key}: only TYPE ${who} takes it${note ? ` (${note})` : ""}`);
    }
  });
  if (!config.PLEX_ENABLED && !config.TARGETS.some((t) => t.ENABLED)) {
    problems.push("PLEX_ENABLED: is false and no TARGETS entry is enabled; scans would go nowhere");
  }
  return problems;
}

/** Each entry field a TYPE declares → the TYPEs that take it (Jellyfin, Emby and Plex share CONFIRM_SCANS). */
function ownersOf(kinds: TargetKinds): Map<string, TargetType[]> {
  const owners = new Map<string, TargetType[]>();
  for (const [type, kind] of Object.entries(kinds) as Array<[TargetType, TargetKinds[TargetType]]>) {
    for (const key of Object.keys(kind.fields ?? {})) owners.set(key, [...(owners.get(key) ?? []), type]);
  }
  return owners;
}
