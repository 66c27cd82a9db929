import type { EnqueueOutcome, Library, ScanRequest } from "../domain.js";
import { PathError, type PathMapper } from "../paths/mapper.js";
import { findLibrariesFor, folderToScan } from "../paths/index.js";
import { matchIgnoreList, type TriggerResult } from "../triggers/index.js";
import { HttpError } from "./http-error.js";

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
}

export type IngestOutcome =
  | { status: 202; source: string; event: string; queued: string[]; covered: string[]; ignored: string[]; unmatched: string[] }
  | { status: 200; result: "test" | "ignored"; source: string; event: string; message: string };

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
  const folders: string[] = [];
  const ignored: string[] = [];
  for (const requested of result.paths) {
    const mapped = mapPath(deps.mapper, requested.path);
    const hit = matchIgnoreList(requested.path, deps.ignoreList) ?? matchIgnoreList(mapped, deps.ignoreList);
    if (hit !== undefined) {
      ignored.push(`${requested.path} (matched ${JSON.stringify(hit)})`);
      continue;
    }
    const folder = folderToScan(mapped, requested.kind === "folder" ? true : requested.kind === "file" ? false : undefined);
    if (!folders.includes(folder)) folders.push(folder);
  }
  if (folders.length === 0) {
    return {
      status: 200,
      result: "ignored",
      source: result.source,
      event: result.event,
      message: `ignored by SERVER_IGNORE_LIST: ${ignored.join(", ")}`,
    };
  }
  const { matched, unmatched } = await splitByLibrary(folders, deps);
  if (matched.length === 0) {
    const libraries = deps.libraries?.knownLibraries() ?? [];
    const list = libraries.map((l) => `${l.title} (${l.locations.join(", ")})`).join("; ") || "none";
    throw new HttpError(422, `no library of the media server contains ${unmatched.join(", ")}; libraries: ${list}`, {
      paths: unmatched,
      libraries,
    });
  }
  const outcome = await deps.sink.enqueue(matched.map((folder) => ({ folder, source: result.source, event: result.event })));
  return { status: 202, source: result.source, event: result.event, queued: outcome.queued, covered: outcome.covered, ignored, unmatched };
}

function mapPath(mapper: PathMapper, path: string): string {
  try {
    return mapper.toServerPath(path);
  } catch (error) {
    if (error instanceof PathError) throw new HttpError(400, error.message);
    throw error;
  }
}

async function splitByLibrary(folders: string[], deps: IngestDeps): Promise<{ matched: string[]; unmatched: string[] }> {
  const catalog = deps.libraries;
  const holds = (folder: string): boolean => {
    if (!catalog) return true;
    const holding = catalog.librariesHolding ? catalog.librariesHolding(folder) : within(catalog.knownLibraries(), folder);
    return holding === undefined || holding.length > 0;
  };
  const split = () => {
    const matched = folders.filter(holds);
    const kept = new Set(matched);
    return { matched, unmatched: folders.filter((f) => !kept.has(f)) };
  };
  const first = split();
  if (!catalog || first.unmatched.length === 0) return first;
  // The libraries may be stale (a library added since the last refresh): look once more.
  await withTimeout(catalog.refreshLibraries(), deps.refreshTimeoutMs ?? 3_000);
  return split();
}

function within(libraries: Library[] | undefined, folder: string): Library[] | undefined {
  return libraries && findLibrariesFor(folder, libraries);
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
