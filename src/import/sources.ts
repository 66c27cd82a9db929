import type { SourceEntry } from "../config/types.js";
import type { ImportModel, ModelTarget, Rule } from "./model.js";
import { toPrefix } from "./prefix-rule.js";

export interface PlannedSources {
  /** The SOURCES key: each source's priority, delay, filters, and its rules when they stay regular expressions. */
  sources: Record<string, SourceEntry>;
  /** Rules that are prefix swaps, to be composed into SERVER_PATH_MAPPINGS as before. */
  inboundRules: Rule[];
  /** Targets whose rules stay regular expressions (TARGETS[i].REWRITES), with them. */
  verbatimTargets: Map<ModelTarget, Rule[]>;
  converted: string[];
  notes: string[];
}

/**
 * How each source's and target's rules carry over. A source whose rules are
 * all prefix swaps, with no filter, keeps today's conversion: composed into
 * SERVER_PATH_MAPPINGS. Any other keeps its rules as they are, in
 * SOURCES.<name>.REWRITES, tried first-match as autoscan did; their result
 * (the tool's own path) then meets the Plex target's prefix rules in
 * SERVER_PATH_MAPPINGS, which is autoscan's second rewrite. A filter sees
 * that same rewritten path, as in autoscan and autopulse. Another target's
 * regular expressions can be kept only when the first Plex target does not
 * rewrite, since scanarr hands every target the Plex target's path.
 */
export function planSources(model: ImportModel, primary: ModelTarget | undefined, isUsable: (name: string) => boolean): PlannedSources {
  const plan: PlannedSources = { sources: {}, inboundRules: [], verbatimTargets: new Map(), converted: [], notes: [] };
  const keepsRules = (name: string): boolean => {
    const source = model.sources.get(name);
    const own =
      source !== undefined &&
      (source.include.length > 0 || source.exclude.length > 0 || source.rules.some((rule) => "problem" in toPrefix(rule)));
    // a-train/<drive> rules must stay ahead of a-train's: when those are kept as written, so are the drive's.
    return own || (name.includes("/") && keepsRules(name.slice(0, name.indexOf("/"))));
  };
  for (const [name, source] of model.sources) {
    const entry: SourceEntry = {};
    if (keepsRules(name)) {
      if (source.rules.length > 0) entry.REWRITES = source.rules.map((r) => ({ FROM: r.from, TO: r.to }));
    } else plan.inboundRules.push(...source.rules);
    if (source.priority !== undefined) entry.PRIORITY = source.priority;
    if (source.delay !== undefined) entry.DELAY = source.delay;
    if (source.include.length > 0) entry.INCLUDE = source.include;
    if (source.exclude.length > 0) entry.EXCLUDE = source.exclude;
    if (Object.keys(entry).length === 0) continue;
    if (!isUsable(name)) {
      plan.notes.push(`source ${JSON.stringify(name)}: its trigger was not converted, so neither are its ${Object.keys(entry).join(", ")}`);
      continue;
    }
    plan.sources[name] = entry;
    plan.converted.push(`SOURCES.${name}: ${describe(entry)}`);
  }
  for (const target of model.targets) {
    if (target === primary || !target.rules.some((rule) => "problem" in toPrefix(rule))) continue;
    if (primary && primary.rules.length > 0) continue;
    plan.verbatimTargets.set(target, target.rules);
    plan.converted.push(`TARGETS ${target.name}: REWRITES ${target.rules.length} regular-expression rule(s) as written`);
  }
  return plan;
}

function describe(entry: SourceEntry): string {
  const parts: string[] = [];
  if (entry.REWRITES) parts.push(`REWRITES ${entry.REWRITES.length} rule(s) as written`);
  if (entry.PRIORITY !== undefined) parts.push(`PRIORITY ${entry.PRIORITY} (lower is delivered first)`);
  if (entry.DELAY !== undefined) parts.push(`DELAY ${entry.DELAY} s`);
  if (entry.INCLUDE) parts.push(`INCLUDE ${entry.INCLUDE.length}`);
  if (entry.EXCLUDE) parts.push(`EXCLUDE ${entry.EXCLUDE.length}`);
  return parts.join(", ");
}
