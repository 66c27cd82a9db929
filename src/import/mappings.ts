import type { ModelTarget, Rule } from "./model.js";
import { toPrefix } from "./prefix-rule.js";

type Mappings = Record<string, string[]>;

export interface ComposedMappings {
  /** SERVER_PATH_MAPPINGS: the first Plex target's paths, each with the prefixes that lead to it. */
  server: Mappings;
  /** Each other target's PATH_MAPPINGS: its own paths, each with the server-form prefixes that lead to it. */
  targets: Map<ModelTarget, Mappings>;
  notes: string[];
}

/**
 * scanarr rewrites once, from any incoming form to the media server's (the
 * first Plex target's paths), where autoscan and autopulse rewrite twice:
 * trigger → their own path → each target. Composing the two prefix rules
 * gives scanarr's; a rule that is not a prefix cannot be composed and is
 * reported instead.
 */
export function composeMappings(
  model: { inboundRules: readonly Rule[]; targets: readonly ModelTarget[] },
  primary: ModelTarget | undefined,
): ComposedMappings {
  const notes: string[] = [];
  const prefixes = (rules: readonly Rule[]) =>
    rules.flatMap((rule) => {
      const result = toPrefix(rule);
      if ("problem" in result) {
        notes.push(`${rule.where}: ${result.problem}; not converted, add the mapping by hand`);
        return [];
      }
      if (result.assumedAnchor)
        notes.push(`${rule.where}: ${JSON.stringify(rule.from)} has no ^ anchor; converted as a prefix of the whole path`);
      return [{ from: result.from, to: result.to, where: rule.where }];
    });
  const primaryRules = primary ? prefixes(primary.rules) : [];
  // autoscan and autopulse apply the first rule that matches.
  const serverOf = (path: string) => {
    const rule = primaryRules.find((r) => isPrefix(r.from, path));
    return rule ? swap(path, rule.from, rule.to) : path;
  };
  const server: Mappings = {};
  const owner = new Map<string, string>();
  const add = (mappings: Mappings, key: string, alternative: string, where: string, seen: Map<string, string>) => {
    if (trim(alternative) === trim(key)) return;
    const taken = seen.get(trim(alternative));
    if (taken !== undefined && taken !== key) {
      notes.push(
        `${where}: ${JSON.stringify(alternative)} already maps to ${JSON.stringify(taken)}; scanarr's mappings are global, so this one is not converted`,
      );
      return;
    }
    if (taken !== undefined) return;
    seen.set(trim(alternative), key);
    const list = mappings[key] ?? [];
    list.push(alternative);
    mappings[key] = list;
  };
  for (const rule of prefixes(model.inboundRules)) {
    const target = serverOf(rule.to);
    add(server, target, rule.from, rule.where, owner);
    add(server, target, rule.to, rule.where, owner);
  }
  for (const rule of primaryRules) add(server, rule.to, rule.from, rule.where, owner);
  const targets = new Map<ModelTarget, Mappings>();
  for (const target of model.targets) {
    if (target === primary) continue;
    const mappings: Mappings = {};
    const seen = new Map<string, string>();
    const own = prefixes(target.rules);
    for (const rule of own) add(mappings, rule.to, serverOf(rule.from), rule.where, seen);
    // Paths this target does not rewrite reach it in the tool's own form, which the Plex rules changed.
    for (const rule of primaryRules) {
      if (!own.some((o) => isPrefix(o.from, rule.from))) add(mappings, rule.from, rule.to, `${rule.where} (for ${target.name})`, seen);
    }
    targets.set(target, mappings);
  }
  return { server, targets, notes };
}

function trim(path: string): string {
  return path.length > 1 ? path.replace(/[\\/]+$/, "") : path;
}

/** Whole components only: `/tv` is a prefix of `/tv/x`, not of `/tvshows`. */
function isPrefix(prefix: string, path: string): boolean {
  const p = trim(prefix);
  return path === p || path.startsWith(p.endsWith("/") ? p : `${p}/`) || trim(path) === p;
}

function swap(path: string, from: string, to: string): string {
  const rest = path.slice(trim(from).length).replace(/^\/+/, "");
  const head = trim(to);
  const joined = head.endsWith("/") ? head : `${head}/`;
  return rest === "" ? (path.endsWith("/") ? joined : head) : `${joined}${rest}`;
}
