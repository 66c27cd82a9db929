import type { IngestOutcome, LibraryCatalog, RequestedPath, ScanRequest, ScanSink } from "../domain.js";
import { folderToScan, matchIgnoreList, PathError, PathSyntaxError, quotePath, type PathMapper } from "../paths/index.js";
import { splitByLibrary } from "./library-check.js";
import { listSome } from "./list-some.js";

export interface IngestDeps {
  mapper: PathMapper;
  ignoreList: readonly string[];
  sink: ScanSink;
  /** The targets' libraries; without it every folder passes the library check. */
  catalog?: LibraryCatalog;
  /** How long a request may wait for a library refresh before it is answered (3 s by default). */
  refreshTimeoutMs?: number;
  /** Gets one debug line per path: which SERVER_PATH_MAPPINGS entry rewrote it. */
  logger?: { debug(fields: Record<string, unknown>, message: string): void };
}

export interface IngestOptions {
  /**
   * False asks for the folders only, naming none of the files (drive
   * monitoring, whose requests never named them). True by default.
   */
  nameFiles?: boolean;
  /**
   * A check of the caller's own, made after every check of the pipeline
   * passed and before anything is queued (autopulse's `hash`): what it throws
   * reaches the caller and nothing is queued.
   */
  admit?: () => Promise<void>;
}

/**
 * The one way in: paths a source named → SERVER_PATH_MAPPINGS →
 * SERVER_IGNORE_LIST (before and after mapping) → the folder to scan → the
 * library check → the sink. Nothing is queued unless every path of the call
 * can be mapped; the sink commits before this resolves.
 */
export type Ingest = (
  requested: readonly RequestedPath[],
  source: string,
  event: string,
  options?: IngestOptions,
) => Promise<IngestOutcome>;

/** Files a folder's request names: imports to wait for, deletions expected gone; and the paths that led to it. */
interface NamedFiles {
  imports: Set<string>;
  deleted: Set<string>;
  origins: Array<{ path: string; mapped: string; mappingKey?: string; mappingPrefix?: string }>;
}

/** Builds the pipeline every source (webhooks, manual scans, /triggers, watchers, drive) calls. */
export function createIngest(deps: IngestDeps): Ingest {
  return async (requested, source, event, options = {}) => {
    const planned = planFolders(requested, deps, options.nameFiles ?? true);
    if (typeof planned === "string") return { result: "refused", source, event, message: planned };
    const { folders, ignored } = planned;
    if (folders.size === 0) {
      return { result: "ignored", source, event, message: `ignored by SERVER_IGNORE_LIST: ${listSome(ignored)}` };
    }
    const { matched, unmatched } = await splitByLibrary(new Set(folders.keys()), deps.catalog, deps.refreshTimeoutMs ?? 3_000);
    if (matched.length === 0) {
      const libraries = deps.catalog?.knownLibraries() ?? [];
      const list = libraries.map((l) => `${l.title} (${l.locations.join(", ")})`).join("; ") || "none";
      const message = `no library of the media server contains ${listSome(unmatched)}; libraries: ${list}`;
      return { result: "unmatched", source, event, message, paths: unmatched, libraries };
    }
    const requests = matched.flatMap(([original, folder]) => requestsFor(folder, folders.get(original), source, event));
    await options.admit?.();
    const outcome = await deps.sink.enqueue(requests);
    return { result: "queued", source, event, queued: outcome.queued, covered: outcome.covered, ignored, unmatched };
  };
}

/**
 * Map → ignore list → folder, for every path: the folders to scan with the
 * files named in each, and the ignored paths; or why the call is refused.
 */
function planFolders(
  requested: readonly RequestedPath[],
  deps: IngestDeps,
  nameFiles: boolean,
): { folders: Map<string, NamedFiles>; ignored: string[] } | string {
  const folders = new Map<string, NamedFiles>();
  const ignored: string[] = [];
  for (const asked of requested) {
    let mapped: string;
    let rule: { mappingKey?: string; mappingPrefix?: string } = {};
    try {
      const step = deps.mapper.explain(asked.path);
      mapped = step.serverPath;
      if (step.key !== undefined && step.prefix !== undefined) rule = { mappingKey: step.key, mappingPrefix: step.prefix };
      deps.logger?.debug({ path: asked.path, prefix: step.prefix ?? null, key: step.key ?? null, mapped }, "path mapped");
    } catch (error) {
      if (error instanceof PathError) return error.message;
      throw error;
    }
    const hit = matchIgnoreList(asked.path, deps.ignoreList) ?? matchIgnoreList(mapped, deps.ignoreList);
    if (hit !== undefined) {
      ignored.push(`${asked.path} (matched ${JSON.stringify(hit)})`);
      continue;
    }
    let folder: string;
    try {
      folder = folderToScan(mapped, asked.kind === "folder" ? true : asked.kind === "file" ? false : undefined);
    } catch (error) {
      if (error instanceof PathSyntaxError) return `path ${quotePath(mapped)} ${error.message}`;
      throw error;
    }
    const named = folders.get(folder) ?? { imports: new Set<string>(), deleted: new Set<string>(), origins: [] };
    folders.set(folder, named);
    named.origins.push({ path: asked.path, mapped, ...rule });
    // A file: the folder to scan is its parent, not the path itself.
    if (nameFiles && asked.kind !== "folder" && folder !== folderToScan(mapped, true)) {
      (asked.deleted ? named.deleted : named.imports).add(mapped);
    }
  }
  return { folders, ignored };
}

function requestsFor(folder: string, named: NamedFiles | undefined, source: string, event: string): ScanRequest[] {
  const base = { folder, source, event };
  if (!named) return [base];
  // The paths that led here go with the folder's first request: one scan takes them all in.
  const origins = { origins: named.origins };
  if (named.imports.size + named.deleted.size === 0) return [{ ...base, ...origins }];
  const asked: ScanRequest[] = [];
  if (named.imports.size > 0) asked.push({ ...base, files: [...named.imports], ...origins });
  if (named.deleted.size > 0) asked.push({ ...base, files: [...named.deleted], deletion: true, ...(asked.length === 0 ? origins : {}) });
  return asked;
}
