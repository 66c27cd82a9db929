import { PLEX_TARGET_NAMES } from "./defaults.js";
import { checkPathMappings } from "./mapping-rules.js";
import type { TargetKinds } from "./target-kind.js";
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
    for (const [type, kind] of Object.entries(kinds)) {
      if (type === entry.TYPE) continue;
      for (const key of Object.keys(kind.fields ?? {})) {
        if ((entry as unknown as Record<string, unknown>)[key] !== undefined) {
          problems.push(`${at}.${key}: only TYPE "${type}" takes it${kind.onlyNote ? ` (${kind.onlyNote})` : ""}`);
        }
      }
    }
  });
  if (!config.PLEX_ENABLED && !config.TARGETS.some((t) => t.ENABLED)) {
    problems.push("PLEX_ENABLED: is false and no TARGETS entry is enabled; scans would go nowhere");
  }
  return problems;
}
