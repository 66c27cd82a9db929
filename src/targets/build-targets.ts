import type { Config } from "../config/types.js";
import type { Target, TargetRuntime } from "../domain.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import { createPathMapper, type PathMapper } from "../paths/mapper.js";
import { createRewriter } from "../paths/rewrite.js";
import type { TargetBuildDeps } from "./factory.js";
import { LibraryCache } from "./library-cache.js";
import { createScannerTargetFromConfig } from "./plex-scanner/scanner-target.js";
import { afterScanOf, createPlexTarget } from "./plex/plex-target.js";
import { TARGET_FACTORIES } from "./registry.js";

export type { TargetBuildDeps } from "./factory.js";

/**
 * Every enabled target, in order: first the Plex target of the flat PLEX_*
 * keys (unless PLEX_ENABLED is false; API or scanner method as configured,
 * named "plex" or "plex-scanner" as before), then each enabled TARGETS entry,
 * built by the factory its TYPE names in registry.ts. Nothing is contacted
 * until start() or a library lookup. Assumes a validated config.
 */
export function buildTargets(config: Config, deps: TargetBuildDeps): TargetRuntime[] {
  const built: TargetRuntime[] = [];
  if (config.PLEX_ENABLED) built.push(buildFlatPlex(config, deps));
  config.TARGETS.forEach((entry, i) => {
    if (!entry.ENABLED) return;
    const at = `TARGETS[${i}]`;
    const target = TARGET_FACTORIES[entry.TYPE]({ entry, at, config }, deps);
    const rewriter = createRewriter([{ rules: entry.REWRITES ?? [], at: `${at}.REWRITES` }]);
    built.push(assemble(target, target.libraries, mapperFor(entry.PATH_MAPPINGS, `${at}.PATH_MAPPINGS`, rewriter)));
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

function buildFlatPlex(config: Config, deps: TargetBuildDeps): TargetRuntime {
  const { clock, logger } = deps;
  const plexDeps = {
    clock,
    logger,
    fetch: deps.fetch,
    timeoutMs: deps.timeoutMs,
    afterScan: { config, env: deps.env, signal: deps.signal },
  };
  if (config.PLEX_SCAN_METHOD === "scanner") {
    const scanner = createScannerTargetFromConfig(config, { env: deps.env ?? {}, logger, signal: deps.signal });
    // The scanner target reads the Plex database on every listLibraries(); the cache serves the HTTP side.
    return runtimeOfTarget({ ...scanner, afterScan: afterScanOf({}, plexDeps) }, { clock, logger });
  }
  const plex = createPlexTarget(config, plexDeps);
  return assemble(plex, plex.libraries, undefined);
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
