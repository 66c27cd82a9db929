import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { WatchedLog } from "./change-logs.js";
import type { FolderCache } from "./folder-cache.js";
import type { LogState, LogStore } from "./store.js";
import type { DriveApi, DriveItem } from "./types.js";

export interface BootstrapDeps {
  api: DriveApi;
  cache: FolderCache;
  logs: LogStore;
  clock: Clock;
  logger: Logger;
}

/**
 * First sight of a log: take its start token, then list its folders (folders
 * only: ⌈folders/1000⌉ calls). The token comes first so changes made during
 * the listing are replayed on the next poll; replays are harmless. Nothing is
 * queued, so files that already existed are never scanned for this.
 */
export async function bootstrapLog(log: WatchedLog, deps: BootstrapDeps): Promise<LogState> {
  const { api, cache, logs } = deps;
  const root = log.driveId !== undefined ? { id: log.driveId, name: log.name ?? log.driveId } : await api.getItem("root");
  if (!root) throw new Error("Drive did not return the My Drive root folder");
  const pageToken = await api.getStartPageToken(log.driveId);
  const folders = await listAllFolders(api, log.driveId);
  const state: LogState = { logKey: log.logKey, rootId: root.id, rootName: root.name, pageToken };
  logs.db.transaction(() => {
    cache.replaceLog(log.logKey, folders);
    logs.save(state, deps.clock.now());
  })();
  cache.setRoot(state.rootId, state.rootName);
  deps.logger.info(
    { drive: state.rootName, folders: folders.length },
    "Drive folder cache built; watching this drive for new files from now on",
  );
  return state;
}

async function listAllFolders(api: DriveApi, driveId: string | undefined): Promise<DriveItem[]> {
  const folders: DriveItem[] = [];
  let pageToken: string | undefined;
  do {
    const page = await api.listFolders(driveId, pageToken);
    // The user corpus also holds shared-drive folders the user opened; those belong to their own log.
    for (const folder of page.folders) if (folder.driveId === driveId) folders.push(folder);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return folders;
}
