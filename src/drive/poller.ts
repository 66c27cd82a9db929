import type { Ingest } from "../ingest/pipeline.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { PathMapper } from "../paths/index.js";
import { bootstrapLog } from "./bootstrap.js";
import type { WatchedLog } from "./change-logs.js";
import type { ChangeFilter } from "./filters.js";
import type { FolderCache } from "./folder-cache.js";
import { handleChangePage, noStats, type MediaIndex, type PageStats } from "./page-handler.js";
import { PathResolver } from "./path-resolver.js";
import type { RemoteNames } from "./remote-view.js";
import type { LogStore } from "./store.js";
import type { DriveApi } from "./types.js";

export interface PollerDeps {
  api: DriveApi;
  cache: FolderCache;
  logs: LogStore;
  filter: ChangeFilter;
  /** The rclone remote's folder and crypt names; undefined: paths as Drive names them. */
  names: RemoteNames | undefined;
  mapper: PathMapper;
  mediaIndex: MediaIndex | undefined;
  ingest: Ingest;
  clock: Clock;
  logger: Logger;
}

/**
 * Replays one change log from its stored token to the end. Per page: turn the
 * changes into scans through the way in (committed when it resolves), and
 * only then store the next token. A crash anywhere before that re-reads
 * the page on the next poll; nothing is skipped.
 */
export async function pollLog(log: WatchedLog, deps: PollerDeps): Promise<PageStats | undefined> {
  const { api, logs, cache, clock } = deps;
  let state = logs.get(log.logKey);
  if (!state) {
    await bootstrapLog(log, deps);
    return undefined;
  }
  if (log.name !== undefined && log.name !== state.rootName) renameRoot(log.logKey, state.rootId, log.name, deps);
  state = { ...state, rootName: log.name ?? state.rootName };
  cache.setRoot(state.rootId, state.rootName);

  const total = noStats();
  const resolver = new PathResolver(cache, api, log.logKey);
  const onDriveRenamed = (name: string): void => renameRoot(log.logKey, state.rootId, name, deps);
  let token = state.pageToken;
  for (;;) {
    const page = await api.listChanges(token, log.driveId);
    const reader = await deps.names?.reader((folderId) => resolver.resolveFolder(folderId ?? state.rootId));
    const stats = await handleChangePage(page.changes, { ...deps, log, resolver, reader, onDriveRenamed });
    addStats(total, stats);
    const next = page.nextPageToken ?? page.newStartPageToken;
    if (next === undefined) throw new Error("changes.list answered without nextPageToken or newStartPageToken");
    logs.advance(log.logKey, next, clock.now());
    if (page.nextPageToken === undefined) break;
    token = next;
  }
  return total;
}

function renameRoot(logKey: string, rootId: string, name: string, deps: PollerDeps): void {
  deps.logs.rename(logKey, name);
  deps.cache.setRoot(rootId, name);
  deps.logger.info({ drive: name }, "Shared drive renamed; new paths use its new name");
}

function addStats(total: PageStats, page: PageStats): void {
  for (const key of Object.keys(total) as (keyof PageStats)[]) total[key] += page[key];
}
