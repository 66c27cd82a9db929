import type { IngestOutcome, RequestedPath } from "../domain.js";
import type { Ingest } from "../ingest/pipeline.js";
import { logOutcome } from "../ingest/report.js";
import type { Logger } from "../lib/logger.js";
import { PathSyntaxError, parsePath } from "../paths/parse.js";
import type { DueFolder } from "./settle.js";

/** Beyond this many files a request names only its folder, which a scan covers anyway. */
export const MAX_FILES_PER_REQUEST = 1000;

export interface EmitDeps {
  ingest: Ingest;
  logger: Logger;
}

/**
 * Sends due folders through the one way in, as a webhook's paths go: new or
 * changed files make one request (event Watch), removed ones a second, marked
 * as deletions (WatchDelete). Every call is made before any is awaited, so
 * the group commit writes them in one transaction. Resolves once committed;
 * what was ignored, in no library or unmappable is logged. A name no path may
 * hold (a control character, say) would refuse the whole call, so a folder
 * named so is skipped and a file named so left out of its folder's request,
 * with a warning each.
 */
export async function emitDueFolders(due: readonly DueFolder[], deps: EmitDeps): Promise<IngestOutcome[]> {
  const calls: Array<Promise<IngestOutcome>> = [];
  for (const folder of due) {
    const refused = whyUnusable(folder.folder);
    if (refused !== undefined) {
      deps.logger.warn({ folder: folder.folder, reason: refused }, "watched folder not queued: its path cannot be mapped");
      continue;
    }
    const present = usableFiles(folder.folder, folder.present, deps.logger);
    const removed = usableFiles(folder.folder, folder.removed, deps.logger);
    if (present.length > 0) calls.push(deps.ingest(requested(folder.folder, present, false), "watch", "Watch"));
    if (removed.length > 0) calls.push(deps.ingest(requested(folder.folder, removed, true), "watch", "WatchDelete"));
  }
  const outcomes = await Promise.all(calls);
  for (const outcome of outcomes) logOutcome(deps.logger, outcome);
  return outcomes;
}

function requested(folder: string, files: readonly string[], deleted: boolean): RequestedPath[] {
  if (files.length > MAX_FILES_PER_REQUEST) return [{ path: folder, kind: "folder" }];
  return files.map((path) => ({ path, kind: "file", ...(deleted ? { deleted } : {}) }));
}

/** The files whose paths are usable; the others are left out, with one warning for the lot. */
function usableFiles(folder: string, files: readonly string[], logger: Logger): readonly string[] {
  let reason: string | undefined;
  const usable = files.filter((file) => {
    const why = whyUnusable(file);
    reason ??= why;
    return why === undefined;
  });
  if (reason !== undefined) {
    const left = files.length - usable.length;
    logger.warn({ folder, files: left, reason }, "watched files left out of the scan request: their paths cannot be mapped");
  }
  return usable;
}

function whyUnusable(path: string): string | undefined {
  try {
    parsePath(path);
    return undefined;
  } catch (error) {
    if (error instanceof PathSyntaxError) return error.message;
    throw error;
  }
}
