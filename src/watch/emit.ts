import type { IngestOutcome, RequestedPath } from "../domain.js";
import type { Ingest } from "../ingest/pipeline.js";
import { logOutcome } from "../ingest/report.js";
import type { Logger } from "../lib/logger.js";
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
 * what was ignored, in no library or unmappable is logged.
 */
export async function emitDueFolders(due: readonly DueFolder[], deps: EmitDeps): Promise<IngestOutcome[]> {
  const calls: Array<Promise<IngestOutcome>> = [];
  for (const folder of due) {
    if (folder.present.length > 0) calls.push(deps.ingest(requested(folder.folder, folder.present, false), "watch", "Watch"));
    if (folder.removed.length > 0) calls.push(deps.ingest(requested(folder.folder, folder.removed, true), "watch", "WatchDelete"));
  }
  const outcomes = await Promise.all(calls);
  for (const outcome of outcomes) logOutcome(deps.logger, outcome);
  return outcomes;
}

function requested(folder: string, files: readonly string[], deleted: boolean): RequestedPath[] {
  if (files.length > MAX_FILES_PER_REQUEST) return [{ path: folder, kind: "folder" }];
  return files.map((path) => ({ path, kind: "file", ...(deleted ? { deleted } : {}) }));
}
