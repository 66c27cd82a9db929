import type { Config, SourceEntry } from "../config/types.js";
import { childPath } from "../config/validate.js";
import { createPathFilter, type PathFilter } from "../paths/filter.js";
import { createPathMapper, type PathMapper } from "../paths/mapper.js";
import { createRewriter, type RewriteList } from "../paths/rewrite.js";

/** What one source's requests get: their mapper (its REWRITES, SERVER_PATH_REWRITES, SERVER_PATH_MAPPINGS), filter, priority and delay. */
export interface SourceSettings {
  name: string;
  mapper: PathMapper;
  filter?: PathFilter;
  priority?: number;
  delayMs?: number;
}

/** SOURCES, compiled once at start. */
export interface SourceTable {
  /** The settings of `name`, or undefined when SOURCES says nothing about it (the pipeline then uses the server mapper). */
  settingsFor(name: string): SourceSettings | undefined;
}

type PathKeys = Pick<Config, "SERVER_PATH_MAPPINGS" | "SERVER_PATH_REWRITES">;

/** The mapper for paths no source names (scanarr map, scan, the dashboard's tester): SERVER_PATH_REWRITES, then SERVER_PATH_MAPPINGS. */
export function createServerMapper(config: PathKeys): PathMapper {
  return createPathMapper(config.SERVER_PATH_MAPPINGS, "SERVER_PATH_MAPPINGS", createRewriter(globalRewrites(config)));
}

/**
 * Compiles SOURCES. A name `a-train/<drive>` takes each key it does not set
 * from `a-train`, and its REWRITES are tried before `a-train`'s (autoscan's
 * drive rules before the trigger's). Throws a PatternError for a pattern the
 * config check would have refused.
 */
export function createSourceTable(config: PathKeys & Pick<Config, "SOURCES">): SourceTable {
  const cache = new Map<string, SourceSettings | undefined>();
  const build = (name: string): SourceSettings | undefined => {
    const own = config.SOURCES[name];
    const parentName = name.includes("/") ? name.slice(0, name.indexOf("/")) : undefined;
    const parent = parentName === undefined ? undefined : config.SOURCES[parentName];
    // Only configured names are kept: a drive id in a URL cannot grow the cache.
    if (own === undefined) return parentName === undefined ? undefined : table.settingsFor(parentName);
    const lists: RewriteList[] = [];
    const at = childPath("SOURCES", name);
    if (own.REWRITES) lists.push({ rules: own.REWRITES, at: `${at}.REWRITES` });
    if (parent?.REWRITES) lists.push({ rules: parent.REWRITES, at: `${childPath("SOURCES", parentName ?? "")}.REWRITES` });
    lists.push(...globalRewrites(config));
    const pick = <K extends keyof SourceEntry>(key: K): SourceEntry[K] => own[key] ?? parent?.[key];
    const filterAt = own.INCLUDE || own.EXCLUDE || parentName === undefined ? at : childPath("SOURCES", parentName);
    const settings: SourceSettings = {
      name,
      mapper: createPathMapper(config.SERVER_PATH_MAPPINGS, "SERVER_PATH_MAPPINGS", createRewriter(lists)),
    };
    const filter = createPathFilter(pick("INCLUDE") ?? [], pick("EXCLUDE") ?? [], filterAt);
    if (filter) settings.filter = filter;
    const priority = pick("PRIORITY");
    if (priority !== undefined) settings.priority = priority;
    const delay = pick("DELAY");
    if (delay !== undefined) settings.delayMs = delay * 1000;
    return settings;
  };
  // Without SOURCES the pipeline's lookup is one call that answers at once: no rewrite costs anything unless configured.
  if (Object.keys(config.SOURCES).length === 0) return { settingsFor: () => undefined };
  const table: SourceTable = {
    settingsFor(name) {
      if (!Object.hasOwn(config.SOURCES, name)) return name.includes("/") ? build(name) : undefined;
      if (!cache.has(name)) cache.set(name, build(name));
      return cache.get(name);
    },
  };
  return table;
}

function globalRewrites(config: PathKeys): RewriteList[] {
  return [{ rules: config.SERVER_PATH_REWRITES, at: "SERVER_PATH_REWRITES" }];
}
