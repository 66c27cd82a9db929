import type { ScanRequest } from "../domain.js";
import type { Logger } from "../lib/logger.js";
import { PathError, type PathMapper } from "../paths/mapper.js";
import type { IngestSink } from "../server/ingest.js";
import { matchIgnoreList } from "../triggers/ignore.js";
import type { DueFolder } from "./settle.js";

/** Beyond this many files a request names only its folder, which a scan covers anyway. */
export const MAX_FILES_PER_REQUEST = 1000;

export interface EmitDeps {
  mapper: PathMapper;
  ignoreList: readonly string[];
  sink: IngestSink;
  logger: Logger;
}

/**
 * Turns due folders into scan requests the way a webhook's paths become
 * them: SERVER_PATH_MAPPINGS to the media server's form, SERVER_IGNORE_LIST
 * before and after mapping. New or changed files make one request; removed
 * ones a second, marked as a deletion. A folder whose own path cannot be
 * mapped (a control character in a name, say) is not queued; a file that
 * cannot is left out of its folder's request, which still goes out for the
 * other files. Both are logged. Resolves once the sink committed.
 */
export async function emitDueFolders(due: readonly DueFolder[], deps: EmitDeps): Promise<ScanRequest[]> {
  const requests: ScanRequest[] = [];
  for (const folder of due) {
    const server = mapFolder(deps, folder.folder);
    if (server === undefined) continue;
    const hit = matchIgnoreList(folder.folder, deps.ignoreList) ?? matchIgnoreList(server, deps.ignoreList);
    if (hit !== undefined) {
      deps.logger.debug({ folder: folder.folder, entry: hit }, "watched folder ignored by SERVER_IGNORE_LIST");
      continue;
    }
    const present = mapFiles(deps, folder.folder, folder.present);
    const removed = mapFiles(deps, folder.folder, folder.removed);
    if (present.length > 0) requests.push(request(server, "Watch", present, false));
    if (removed.length > 0) requests.push(request(server, "WatchDelete", removed, true));
  }
  if (requests.length > 0) await deps.sink.enqueue(requests);
  return requests;
}

function request(folder: string, event: string, files: string[], deletion: boolean): ScanRequest {
  const named = files.length <= MAX_FILES_PER_REQUEST ? { files } : {};
  return { folder, source: "watch", event, ...named, ...(deletion ? { deletion } : {}) };
}

function mapFolder(deps: EmitDeps, folder: string): string | undefined {
  try {
    return deps.mapper.toServerPath(folder);
  } catch (error) {
    if (!(error instanceof PathError)) throw error;
    deps.logger.warn({ folder, reason: error.message }, "watched folder not queued: its path cannot be mapped");
    return undefined;
  }
}

/** The files that map; the others are left out, with one warning for the lot. */
function mapFiles(deps: EmitDeps, folder: string, files: readonly string[]): string[] {
  const mapped: string[] = [];
  let refused: { count: number; reason: string } | undefined;
  for (const file of files) {
    try {
      mapped.push(deps.mapper.toServerPath(file));
    } catch (error) {
      if (!(error instanceof PathError)) throw error;
      refused = { count: (refused?.count ?? 0) + 1, reason: refused?.reason ?? error.message };
    }
  }
  if (refused !== undefined) {
    deps.logger.warn(
      { folder, files: refused.count, reason: refused.reason },
      "watched files left out of the scan request: their paths cannot be mapped",
    );
  }
  return mapped;
}
