import type { Library, RewriteHit, TargetRuntime } from "../domain.js";
import { suggestDriveMapping, type MappingToAdd } from "./drive-mapping-hint.js";
import { describeVerdict, type PathFilter } from "./filter.js";
import { matchIgnoreList } from "./ignore.js";
import { classifyPath, folderToScan, type PathKind } from "./folder.js";
import { PathError, type PathMapper } from "./mapper.js";
import { styleOf } from "./parse.js";
import { findLibrariesFor, isWithin } from "./within.js";
import { messageOf } from "../lib/errors.js";

/**
 * A media server a path is traced to (the one contract, domain.ts): its
 * name and libraries (a failed listLibraries() is shown instead of a
 * library), and how it names paths.
 */
export type TraceTarget = Pick<TargetRuntime, "target" | "toTargetPath" | "explainTargetPath">;

/** A target with its libraries already read (or the reason they could not be). */
export interface ResolvedTarget {
  name: string;
  toTargetPath(path: string): string;
  /** Which of the target's REWRITES changed the path, when it has any. */
  explainTargetPath?(path: string): { rewrite?: RewriteHit };
  libraries: Library[] | { error: string };
}

/** Where one target would scan the folder, or why it would not. */
export interface TargetStep {
  target: string;
  /** The folder as the target names it. */
  path: string;
  /** The target's REWRITES entry that changed it. */
  rewrite?: RewriteHit;
  library?: { id: string; title: string; location: string };
  /** Why no library: none holds the path, or the libraries are unknown. */
  why?: string;
}

/** Every step a path goes through on its way to a scan; the steps after a failure are absent. */
export interface PathTrace {
  input: string;
  /** The SOURCES entry whose rewrites and filters were applied (`scanarr map --source`). */
  source?: string;
  /** The regular-expression rewrite (a source's REWRITES, SERVER_PATH_REWRITES) that ran before the mappings. */
  rewrite?: RewriteHit;
  /** The SERVER_PATH_MAPPINGS entry that rewrote it; absent when none matched. */
  mapping?: { prefix: string; key: string };
  serverPath?: string;
  /** Why the path cannot be scanned at all (relative without a mapping, `..`, NUL). */
  error?: string;
  /** For a cloud-drive path no mapping matched: the SERVER_PATH_MAPPINGS entry that would carry it. */
  addMapping?: MappingToAdd;
  /** The SERVER_IGNORE_LIST entry that drops it. */
  ignoredBy?: string;
  /** The source's INCLUDE/EXCLUDE that drops it, in words. */
  filteredBy?: string;
  kind?: PathKind;
  folder?: string;
  targets: TargetStep[];
}

export interface TraceInput {
  mapper: PathMapper;
  ignoreList: readonly string[];
  /** The source traced as (its SOURCES name) and its INCLUDE/EXCLUDE. */
  source?: { name: string; filter?: PathFilter };
  /** What a webhook says the path is; undefined decides by the name. */
  kind?: "file" | "folder";
  targets: readonly ResolvedTarget[];
  /** The drive folders monitoring watches (CLOUD.ALLOWED.FILE_PATHS), for the entry suggested for an unmapped drive path. */
  driveFolders?: readonly string[];
}

/** Reads each target's libraries once, for tracing many paths. */
export async function resolveTargets(targets: readonly TraceTarget[]): Promise<ResolvedTarget[]> {
  return Promise.all(
    targets.map(async (t) => {
      let libraries: ResolvedTarget["libraries"];
      try {
        libraries = await t.target.listLibraries();
      } catch (error) {
        libraries = { error: messageOf(error) };
      }
      const resolved: ResolvedTarget = { name: t.target.name, toTargetPath: (p: string) => t.toTargetPath(p), libraries };
      const explain = t.explainTargetPath;
      if (explain) resolved.explainTargetPath = (p: string) => explain(p);
      return resolved;
    }),
  );
}

/** How `input` is mapped, classified and matched to a library of each target, as the service would do it. */
export function tracePath(input: string, deps: TraceInput): PathTrace {
  const trace: PathTrace = { input, targets: [] };
  if (deps.source) trace.source = deps.source.name;
  let serverPath: string;
  try {
    const mapped = deps.mapper.explain(input);
    serverPath = mapped.serverPath;
    if (mapped.rewrite) trace.rewrite = mapped.rewrite;
    if (mapped.prefix !== undefined && mapped.key !== undefined) trace.mapping = { prefix: mapped.prefix, key: mapped.key };
  } catch (error) {
    if (!(error instanceof PathError)) throw error;
    trace.error = error.message;
    const addMapping = styleOf(input) === "relative" ? suggestFor(input, deps) : undefined;
    if (addMapping) trace.addMapping = addMapping;
    return trace;
  }
  trace.serverPath = serverPath;
  const ignoredBy = matchIgnoreList(input, deps.ignoreList) ?? matchIgnoreList(serverPath, deps.ignoreList);
  if (ignoredBy !== undefined) {
    trace.ignoredBy = ignoredBy;
    return trace;
  }
  const verdict = deps.source?.filter?.(trace.rewrite ? trace.rewrite.result : input);
  if (verdict !== undefined) {
    trace.filteredBy = describeVerdict(verdict);
    return trace;
  }
  const isDirectory = deps.kind === undefined ? undefined : deps.kind === "folder";
  trace.kind = classifyPath(serverPath, isDirectory);
  const folder = folderToScan(serverPath, isDirectory);
  trace.folder = folder;
  trace.targets = deps.targets.map((target) => stepFor(target, folder));
  return trace;
}

/** undefined when the path cannot be read at all (a control character): nothing to suggest. */
function suggestFor(input: string, deps: TraceInput): MappingToAdd | undefined {
  try {
    const watched = deps.driveFolders?.find((f) => isWithin(f, input));
    const folder = watched ?? folderToScan(input, deps.kind === undefined ? undefined : deps.kind === "folder");
    return suggestDriveMapping(input, libraryLocations(deps.targets), folder.replace(/\/*$/, "/"));
  } catch {
    return undefined;
  }
}

function stepFor(target: ResolvedTarget, folder: string): TargetStep {
  const path = target.toTargetPath(folder);
  const step: TargetStep = { target: target.name, path };
  const rewrite = target.explainTargetPath?.(folder).rewrite;
  if (rewrite) step.rewrite = rewrite;
  if (!Array.isArray(target.libraries)) return { ...step, why: `libraries unknown: ${target.libraries.error}` };
  const [best] = findLibrariesFor(path, target.libraries);
  if (!best) return { ...step, why: `no library holds ${path}; libraries: ${describeLibraries(target.libraries)}` };
  const location = best.locations.filter((l) => isWithin(l, path)).sort((a, b) => b.length - a.length)[0] ?? "";
  return { ...step, library: { id: best.id, title: best.title, location } };
}

/** `Movies (/data/Movies), TV (/data/TV, /more/TV)`, or "none". */
export function describeLibraries(libraries: readonly Library[]): string {
  if (libraries.length === 0) return "none";
  return libraries.map((l) => `${l.title} (${l.locations.join(", ") || "no folders"})`).join(", ");
}

/** Every library folder of the targets whose libraries were read, in target order. */
export function libraryLocations(targets: readonly ResolvedTarget[]): string[] {
  return targets.flatMap((t) => (Array.isArray(t.libraries) ? t.libraries.flatMap((l) => l.locations) : []));
}

/** Whether the trace ends in a library of at least one target. */
export function isScannable(trace: PathTrace): boolean {
  return trace.targets.some((t) => t.library !== undefined);
}
