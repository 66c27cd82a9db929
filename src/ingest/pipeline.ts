import type { EnqueueOutcome, IngestOutcome, LibraryCatalog, RequestedPath, ScanRequest, ScanSink } from "../domain.js";
import { nextTurn } from "../lib/next-turn.js";
import { folderToScan, matchIgnoreList, PathError, PathSyntaxError, quotePath, type PathMapper } from "../paths/index.js";
import { describeVerdict } from "../paths/filter.js";
import { sidecarOf } from "../paths/sidecars.js";
import { splitByLibrary } from "./library-check.js";
import { listSome } from "./list-some.js";
import type { SourceSettings, SourceTable } from "./sources.js";

export interface IngestDeps {
  mapper: PathMapper;
  ignoreList: readonly string[];
  sink: ScanSink;
  /** SOURCES: a source's own rewrites, filters, priority and delay; without it every source gets `mapper`. */
  sources?: SourceTable;
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
  /**
   * True when the tool that asks replaced the named files in place (a
   * remux): the items holding them are refreshed (and analyzed in Plex) as
   * well as their folders scanned. Sidecars need no flag. False by default.
   */
  refresh?: boolean;
  /**
   * The SOURCES name whose settings apply, when it is not `source`: the
   * name of a /triggers/<NAME> route, `a-train/<drive>`.
   */
  sourceName?: string;
  /**
   * True when the tool that asks says its batch is complete (Sonarr's Import
   * Complete, a Radarr, Lidarr or Readarr import): the folders are due at
   * once instead of after their quiet time (ScanRequest.dueNow).
   */
  batchEnd?: boolean;
}

/**
 * The one way in: paths a source named → its REWRITES and
 * SERVER_PATH_REWRITES → SERVER_PATH_MAPPINGS → SERVER_IGNORE_LIST (before
 * and after mapping) → its INCLUDE/EXCLUDE (on the rewritten path, before
 * the prefix mappings, as autoscan filtered) → the folder to scan → the
 * library check → the sink, with its PRIORITY and DELAY. Nothing is queued unless every path of the call
 * can be mapped; the sink commits before this resolves.
 */
export type Ingest = (
  requested: readonly RequestedPath[],
  source: string,
  event: string,
  options?: IngestOptions,
) => Promise<IngestOutcome>;

/**
 * Files a folder's request names: imports to wait for, imports whose items
 * are refreshed too (replaced in place), sidecars (only their videos' items
 * are refreshed), deletions expected gone; and whether the folder itself was
 * asked for; and the paths that led to it.
 */
interface NamedFiles {
  imports: Set<string>;
  replaced: Set<string>;
  sidecars: Set<string>;
  deleted: Set<string>;
  whole: boolean;
  origins: Array<{ path: string; mapped: string; mappingKey?: string; mappingPrefix?: string }>;
}

/**
 * A big request (a 20,000-file import) is handled in slices with a turn of
 * the event loop between them, so no slice holds the loop for more than a few
 * milliseconds and other requests (GET /health) are answered meanwhile:
 * paths mapped, folders matched against the libraries and folders turned
 * into scan requests per slice (bench/big-webhook.ts measures the loop's
 * longest hold; building 25,000 folders' requests at once held it 50-60 ms)…
 */
export const PATHS_PER_SLICE = 1_000;
/**
 * …and scan requests committed per slice. A request with more is committed
 * in several transactions, the last before the caller is answered; should one
 * fail (a full disk), the caller gets its error and the slices before it
 * stay queued, which a retry of the same request merges with. A request of
 * up to this many is one transaction, as before. A commit of 512 new folders
 * held the loop 40-60 ms on a busy machine; 256 halves that.
 */
export const REQUESTS_PER_COMMIT = 256;

/** Builds the pipeline every source (webhooks, manual scans, /triggers, watchers, drive) calls. */
export function createIngest(deps: IngestDeps): Ingest {
  return async (requested, source, event, options = {}) => {
    const settings = deps.sources?.settingsFor(options.sourceName ?? source);
    const planned = await planFolders(requested, deps, settings, options.nameFiles ?? true, options.refresh ?? false);
    if (typeof planned === "string") return { result: "refused", source, event, message: planned };
    const { folders, ignored, filtered } = planned;
    if (folders.size === 0) {
      const by = filtered ? `SERVER_IGNORE_LIST or the INCLUDE/EXCLUDE of SOURCES for ${settings?.name ?? source}` : "SERVER_IGNORE_LIST";
      return { result: "ignored", source, event, message: `ignored by ${by}: ${listSome(ignored)}` };
    }
    const { matched, unmatched } = await splitByLibrary(new Set(folders.keys()), deps.catalog, deps.refreshTimeoutMs ?? 3_000);
    if (matched.length === 0) {
      const libraries = deps.catalog?.knownLibraries() ?? [];
      const list = libraries.map((l) => `${l.title} (${l.locations.join(", ")})`).join("; ") || "none";
      const message = `no library of the media server holds ${listSome(unmatched)}; libraries: ${list}`;
      return { result: "unmatched", source, event, message, paths: unmatched, libraries };
    }
    const requests: ScanRequest[] = [];
    let inSlice = 0;
    for (const [original, folder] of matched) {
      if (++inSlice > PATHS_PER_SLICE) {
        inSlice = 1;
        await nextTurn();
      }
      requests.push(...requestsFor(folder, folders.get(original), source, event, settings, options.batchEnd === true));
    }
    await options.admit?.();
    const outcome = await enqueueInSlices(deps.sink, requests);
    return { result: "queued", source, event, queued: outcome.queued, covered: outcome.covered, ignored, unmatched };
  };
}

/**
 * Map → ignore list → folder, for every path: the folders to scan with the
 * files named in each, and the ignored paths; or why the call is refused.
 */
async function planFolders(
  requested: readonly RequestedPath[],
  deps: IngestDeps,
  settings: SourceSettings | undefined,
  nameFiles: boolean,
  refresh: boolean,
): Promise<{ folders: Map<string, NamedFiles>; ignored: string[]; filtered: boolean } | string> {
  const folders = new Map<string, NamedFiles>();
  const ignored: string[] = [];
  let filtered = false;
  const mapper = settings?.mapper ?? deps.mapper;
  const filter = settings?.filter;
  let inSlice = 0;
  for (const asked of requested) {
    if (++inSlice > PATHS_PER_SLICE) {
      inSlice = 1;
      await nextTurn();
    }
    let mapped: string;
    let rewritten: string;
    let rule: { mappingKey?: string; mappingPrefix?: string } = {};
    try {
      const step = mapper.explain(asked.path);
      mapped = step.serverPath;
      rewritten = step.rewrite ? step.rewrite.result : asked.path;
      if (step.key !== undefined && step.prefix !== undefined) rule = { mappingKey: step.key, mappingPrefix: step.prefix };
      deps.logger?.debug(
        { path: asked.path, rewrite: step.rewrite?.rule ?? null, prefix: step.prefix ?? null, key: step.key ?? null, mapped },
        "path mapped",
      );
    } catch (error) {
      if (error instanceof PathError) return error.message;
      throw error;
    }
    const hit = matchIgnoreList(asked.path, deps.ignoreList) ?? matchIgnoreList(mapped, deps.ignoreList);
    if (hit !== undefined) {
      ignored.push(`${asked.path} (matched ${JSON.stringify(hit)})`);
      continue;
    }
    const verdict = filter?.(rewritten);
    if (verdict !== undefined) {
      filtered = true;
      ignored.push(`${asked.path} (${describeVerdict(verdict)})`);
      continue;
    }
    let folder: string;
    try {
      folder = folderToScan(mapped, asked.kind === "folder" ? true : asked.kind === "file" ? false : undefined);
    } catch (error) {
      if (error instanceof PathSyntaxError) return `path ${quotePath(mapped)} ${error.message}`;
      throw error;
    }
    const named = folders.get(folder) ?? emptyNamed();
    folders.set(folder, named);
    named.origins.push({ path: asked.path, mapped, ...rule });
    // A file: the folder to scan is its parent, not the path itself.
    if (nameFiles && asked.kind !== "folder" && folder !== folderToScan(mapped, true)) {
      setOf(named, mapped, asked, refresh).add(mapped);
    } else {
      named.whole = true;
    }
  }
  return { folders, ignored, filtered };
}

/** One enqueue for a request of ordinary size; a bigger one in slices, their outcomes merged. */
async function enqueueInSlices(sink: ScanSink, requests: ScanRequest[]): Promise<EnqueueOutcome> {
  if (requests.length <= REQUESTS_PER_COMMIT) return sink.enqueue(requests);
  const queued = new Set<string>();
  const covered = new Set<string>();
  for (let from = 0; from < requests.length; from += REQUESTS_PER_COMMIT) {
    const outcome = await sink.enqueue(requests.slice(from, from + REQUESTS_PER_COMMIT));
    for (const folder of outcome.queued) queued.add(folder);
    for (const folder of outcome.covered) covered.add(folder);
  }
  return { queued: [...queued], covered: [...covered].filter((folder) => !queued.has(folder)) };
}

function emptyNamed(): NamedFiles {
  return { imports: new Set(), replaced: new Set(), sidecars: new Set(), deleted: new Set(), whole: false, origins: [] };
}

/** Where a named file goes: the sidecar table decides before any flag does. */
function setOf(named: NamedFiles, mapped: string, asked: RequestedPath, refresh: boolean): Set<string> {
  if (asked.deleted) return named.deleted;
  if (sidecarOf(mapped)) return named.sidecars;
  return asked.refresh || refresh ? named.replaced : named.imports;
}

function requestsFor(
  folder: string,
  named: NamedFiles | undefined,
  source: string,
  event: string,
  settings: SourceSettings | undefined,
  batchEnd: boolean,
): ScanRequest[] {
  const base: ScanRequest = { folder, source, event };
  if (settings?.priority !== undefined) base.priority = settings.priority;
  if (settings?.delayMs !== undefined) base.delayMs = settings.delayMs;
  if (batchEnd) base.dueNow = true;
  if (!named) return [base];
  const asked: ScanRequest[] = [];
  if (named.imports.size > 0) asked.push({ ...base, files: [...named.imports] });
  if (named.replaced.size > 0) asked.push({ ...base, files: [...named.replaced], refresh: true });
  if (named.sidecars.size > 0) asked.push({ ...base, files: [...named.sidecars], refresh: true, scanFolder: false });
  if (named.deleted.size > 0) asked.push({ ...base, files: [...named.deleted], deletion: true });
  // The folder itself was asked for (or its files go unnamed): it is scanned even when only sidecars were named.
  if (asked.length === 0 || (named.whole && asked.every((r) => r.scanFolder === false))) asked.push(base);
  // The paths that led here go with the folder's first request: one scan takes them all in.
  const [first, ...rest] = asked as [ScanRequest, ...ScanRequest[]];
  return [{ ...first, origins: named.origins }, ...rest];
}
