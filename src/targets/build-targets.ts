import { writtenKeyOf, writtenPathOf } from "../config/plex-entry.js";
import type { Config } from "../config/types.js";
import type { Target, TargetRuntime } from "../domain.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import { createPathMapper, type PathMapper } from "../paths/mapper.js";
import { createRewriter } from "../paths/rewrite.js";
import type { TargetBuildDeps, TargetFactory } from "./factory.js";
import { LibraryCache } from "./library-cache.js";
import { TARGET_FACTORIES } from "./registry.js";

export type { TargetBuildDeps } from "./factory.js";

/**
 * Every enabled TARGETS entry, in order (the loader made the flat PLEX_* keys
 * the first one: config/plex-entry.ts), built by the factory its TYPE names
 * in registry.ts; only the folders of the configured TYPEs are loaded.
 * Nothing is contacted until start() or a library lookup. Assumes a loaded
 * config.
 */
export async function buildTargets(config: Config, deps: TargetBuildDeps): Promise<TargetRuntime[]> {
  const types = [...new Set(config.TARGETS.filter((entry) => entry.ENABLED).map((entry) => entry.TYPE))];
  const factories = new Map<string, TargetFactory>(
    await Promise.all(types.map(async (type) => [type, await TARGET_FACTORIES[type]()] as const)),
  );
  const built: TargetRuntime[] = [];
  config.TARGETS.forEach((entry, i) => {
    const create = factories.get(entry.TYPE);
    if (!entry.ENABLED || !create) return;
    const keyOf = (field: string) => writtenKeyOf(config, i, field);
    const at = writtenPathOf(config, i) ?? entry.NAME;
    const target = create({ entry, at, keyOf, config }, deps);
    const rewriter = createRewriter([{ rules: entry.REWRITES ?? [], at: keyOf("REWRITES") }]);
    built.push(assemble(target, target.libraries, mapperFor(entry.PATH_MAPPINGS, keyOf("PATH_MAPPINGS"), rewriter)));
  });
  return built;
}

/**
 * A target built elsewhere (a test's fake, a replaced target) as the service
 * runs it: a LibraryCache over its listLibraries(), its own path form.
 */
export function runtimeOfTarget(target: Target, tuning: { clock?: Clock; logger?: Logger } = {}): TargetRuntime {
  return assemble(target, new LibraryCache({ ...tuning, name: target.name, fetch: () => target.listLibraries() }), undefined);
}

function assemble(target: Target, libraries: LibraryCache, mapper: PathMapper | undefined): TargetRuntime {
  const runtime: TargetRuntime = {
    target,
    libraries,
    toTargetPath: mapper ? (path) => mapper.toServerPath(path) : identity,
    start: () => libraries.start(),
    stop: () => libraries.stop(),
  };
  if (mapper) runtime.explainTargetPath = (path) => mapper.explain(path);
  return runtime;
}

/** The target's REWRITES, then its PATH_MAPPINGS; undefined (the media-server path as it is) without either. */
function mapperFor(mappings: Record<string, string[]>, label: string, rewriter: ReturnType<typeof createRewriter>): PathMapper | undefined {
  if (Object.keys(mappings).length === 0 && !rewriter) return undefined;
  return createPathMapper(mappings, label, rewriter);
}

function identity(path: string): string {
  return path;
}
