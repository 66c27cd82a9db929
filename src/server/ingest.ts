import type { EnqueueOutcome, Library, ScanRequest } from "../domain.js";
import { matcherOf, folderToScan, PathError, PathSyntaxError, quotePath, type MappedPath, type PathMapper } from "../paths/index.js";
import { matchIgnoreList, type RequestedPath, type TriggerResult } from "../triggers/index.js";
import type { RequestOutcome } from "../metrics/metrics.js";
import { HttpError, unwritableAnswer } from "./http-error.js";
import { LIMITS } from "./limits.js";

/** The media server's libraries as far as they are known; used to refuse paths no library holds. */
export interface LibraryCatalog {
  /** undefined until the libraries could be read once. */
  knownLibraries(): Library[] | undefined;
  refreshLibraries(): Promise<unknown>;
  /**
   * The libraries holding `folder` (media-server path form) on any target,
   * each in its own path form; undefined when that cannot be told yet. Without
   * it, `knownLibraries()` is searched directly.
   */
  librariesHolding?(folder: string): Library[] | undefined;
}

/** Where accepted requests go; resolves once they are committed. */
export interface IngestSink {
  enqueue(requests: ScanRequest[]): EnqueueOutcome | Promise<EnqueueOutcome>;
}

export interface IngestDeps {
  allowManual: boolean;
  ignoreList: readonly string[];
  mapper: PathMapper;
  sink: IngestSink;
  libraries?: LibraryCatalog;
  /** How long a request may wait for a library refresh before answering. */
  refreshTimeoutMs?: number;
  /** Gets one debug line per path: which SERVER_PATH_MAPPINGS entry rewrote it. */
  logger?: { debug(fields: Record<string, unknown>, message: string): void };
}

export type IngestOutcome =
  | { status: 202; source: string; event: string; queued: string[]; covered: string[]; ignored: string[]; unmatched: string[] }
  | { status: 200; result: "test" | "ignored"; source: string; event: string; message: string };

/** How the metrics count an answered request. */
export function requestOutcomeOf(outcome: IngestOutcome): RequestOutcome {
  return outcome.status === 202 ? "queued" : outcome.result;
}

/**
 * Turns a parsed request into committed scans, or says why not. Nothing is
 * queued unless every path of the request is valid; the queue commits before
 * this returns, so a 202 built from the outcome is never a lie.
 */
export async function ingest(result: TriggerResult, deps: IngestDeps): Promise<IngestOutcome> {
  if (result.kind === "invalid") throw new HttpError(400, result.reason);
  if (result.kind === "test")
    return { status: 200, result: "test", source: result.source, event: result.event, message: "test request received; nothing to scan" };
  if (result.kind === "ignored")
    return { status: 200, result: "ignored", source: result.source, event: result.event, message: `ignored: ${result.reason}` };
  if (result.source === "manual" && !deps.allowManual) {
    throw new HttpError(403, "manual scans are disabled; set SERVER_ALLOW_MANUAL_SCAN to true in the config to allow them");
  }
  if (result.paths.length > LIMITS.pathsPerRequest) {
    throw new HttpError(413, `the request names ${result.paths.length} paths; the limit is ${LIMITS.pathsPerRequest} per request`);
  }
  // Each folder to scan, with the files the request named in it (imports to wait for, deletions).
  const folders = new Map<string, { imports: Set<string>; deleted: Set<string> }>();
  const ignored: string[] = [];
  for (const requested of result.paths) {
    const step = mapPath(deps.mapper, requested.path);
    const mapped = step.serverPath;
    deps.logger?.debug({ path: requested.path, prefix: step.prefix ?? null, key: step.key ?? null, mapped }, "path mapped");
    const hit = matchIgnoreList(requested.path, deps.ignoreList) ?? matchIgnoreList(mapped, deps.ignoreList);
    if (hit !== undefined) {
      ignored.push(`${requested.path} (matched ${JSON.stringify(hit)})`);
      continue;
    }
    const folder = folderOf(mapped, requested);
    const named = folders.get(folder) ?? { imports: new Set<string>(), deleted: new Set<string>() };
    folders.set(folder, named);
    // A file: the folder to scan is its parent, not the path itself.
    if (requested.kind !== "folder" && folder !== folderOf(mapped, { ...requested, kind: "folder" })) {
      (requested.deleted ? named.deleted : named.imports).add(mapped);
    }
  }
  if (folders.size === 0) {
    return {
      status: 200,
      result: "ignored",
      source: result.source,
      event: result.event,
      message: `ignored by SERVER_IGNORE_LIST: ${listSome(ignored)}`,
    };
  }
  const { matched, unmatched } = await splitByLibrary(new Set(folders.keys()), deps);
  if (matched.length === 0) {
    const libraries = deps.libraries?.knownLibraries() ?? [];
    const list = libraries.map((l) => `${l.title} (${l.locations.join(", ")})`).join("; ") || "none";
    throw new HttpError(422, `no library of the media server contains ${listSome(unmatched)}; libraries: ${list}`, {
      paths: unmatched,
      libraries,
    });
  }
  const requests = matched.flatMap(([original, folder]) => {
    const named = folders.get(original);
    const base = { folder, source: result.source, event: result.event };
    if (!named || named.imports.size + named.deleted.size === 0) return [base];
    const asked: ScanRequest[] = [];
    if (named.imports.size > 0) asked.push({ ...base, files: [...named.imports] });
    if (named.deleted.size > 0) asked.push({ ...base, files: [...named.deleted], deletion: true });
    return asked;
  });
  let outcome: EnqueueOutcome;
  try {
    outcome = await deps.sink.enqueue(requests);
  } catch (error) {
    throw unwritableAnswer(error) ?? error;
  }
  return { status: 202, source: result.source, event: result.event, queued: outcome.queued, covered: outcome.covered, ignored, unmatched };
}

function mapPath(mapper: PathMapper, path: string): MappedPath {
  try {
    return mapper.explain(path);
  } catch (error) {
    if (error instanceof PathError) throw new HttpError(400, error.message);
    throw error;
  }
}

function folderOf(mapped: string, requested: RequestedPath): string {
  try {
    return folderToScan(mapped, requested.kind === "folder" ? true : requested.kind === "file" ? false : undefined);
  } catch (error) {
    if (error instanceof PathSyntaxError) throw new HttpError(400, `path ${quotePath(mapped)} ${error.message}`);
    throw error;
  }
}

/** Folders some library holds (spelled as the library spells its location, so case variants of a Windows path coalesce), and the rest. */
async function splitByLibrary(
  folders: Set<string>,
  deps: IngestDeps,
): Promise<{ matched: Array<[folder: string, spelled: string]>; unmatched: string[] }> {
  const catalog = deps.libraries;
  const split = () => {
    const known = catalog?.knownLibraries();
    const matcher = known ? matcherOf(known) : undefined;
    const matched = new Map<string, string>();
    const unmatched: string[] = [];
    for (const folder of folders) {
      const holding = catalog?.librariesHolding ? catalog.librariesHolding(folder) : matcher?.librariesFor(folder);
      if (holding !== undefined && holding.length === 0) unmatched.push(folder);
      else matched.set(folder, matcher && matcher.librariesFor(folder).length > 0 ? matcher.spellLikeLibrary(folder) : folder);
    }
    return { matched: [...matched], unmatched };
  };
  const first = split();
  if (!catalog || first.unmatched.length === 0) return first;
  // The libraries may be stale (a library added since the last refresh): look once more.
  await withTimeout(catalog.refreshLibraries(), deps.refreshTimeoutMs ?? 3_000);
  return split();
}

async function withTimeout(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([
    work.then(
      () => undefined,
      () => undefined,
    ),
    timeout,
  ]);
  clearTimeout(timer);
}

const LISTED = 10;

/** The first few items for a message, so a request naming thousands of paths gets a short answer and log line. */
export function listSome(items: readonly string[]): string {
  const shown = items.slice(0, LISTED).join(", ");
  return items.length > LISTED ? `${shown} and ${items.length - LISTED} more` : shown;
}
