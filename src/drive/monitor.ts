import type Database from "better-sqlite3";
import type { DriveAuth } from "../auth/drive-auth.js";
import type { Config } from "../config/types.js";
import type { Ingest } from "../ingest/pipeline.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { PathMapper } from "../paths/index.js";
import { withRetries } from "./backoff.js";
import { listWatchedLogs, type LogChoice, type WatchedLog } from "./change-logs.js";
import { createDriveApi } from "./client.js";
import { createChangeFilter } from "./filters.js";
import { FolderCache } from "./folder-cache.js";
import type { MediaIndex } from "./page-handler.js";
import { RemoteNames, type RemoteView } from "./remote-view.js";
import { pollLog, type PollerDeps } from "./poller.js";
import { LogStore, migrateDriveTables } from "./store.js";
import { messageOf } from "../lib/errors.js";

export type { MediaIndex } from "./page-handler.js";

export interface DriveMonitorDeps {
  config: Config;
  /** The shared database; the monitor keeps its state in drive_* tables. */
  db: Database.Database;
  /** The one way in, which every new file goes through (SERVER_IGNORE_LIST, library check, commit). */
  ingest: Ingest;
  /** Maps drive paths for the media index. */
  mapper: PathMapper;
  /** Files the media server already has; undefined queues every passing file. */
  mediaIndex: MediaIndex | undefined;
  /** The user's OAuth client or a service account's JWT client (src/auth). */
  auth: DriveAuth;
  /** What CLOUD.RCLONE_REMOTE or RCLONE.CRYPT_MAPPINGS says about the logs, the folder and crypt names; undefined: neither is set. */
  view?: RemoteView | undefined;
  logger: Logger;
  clock: Clock;
  random?: () => number;
  /** Told how each poll ended, after lastPoll() says so. */
  onPoll?: (ok: boolean) => void;
}

export interface DriveMonitor {
  /** Stops polling and waits for a running poll to finish its current call. */
  stop(): Promise<void>;
  /** Polls now (or joins the running poll); never rejects. */
  pollNow(): Promise<void>;
  /** How the last finished poll went (for /health); undefined before the first one ends. */
  lastPoll(): { ok: boolean; at: number } | undefined;
}

/**
 * Watches My Drive and the configured shared drives for new media files and
 * queues scans of their folders. The first poll starts at once; the next one
 * CLOUD.POLL_INTERVAL seconds after the previous one ended, so polls never
 * overlap. A failed poll is logged and retried at the next interval.
 */
export function startDriveMonitor(deps: DriveMonitorDeps): DriveMonitor {
  const { config, db, clock } = deps;
  const logger = deps.logger.child({ component: "drive" });
  migrateDriveTables(db);
  const abort = new AbortController();
  const backoff = { clock, random: deps.random ?? Math.random, logger, signal: abort.signal };
  const poller: PollerDeps = {
    api: withRetries(createDriveApi({ auth: deps.auth, apiUrl: config.CLOUD.API_URL, authorizeAgain: deps.view?.authorizeAgain }), backoff),
    cache: new FolderCache(db, logger, config.CLOUD.SHOW_CACHE_LOGS),
    logs: new LogStore(db),
    filter: createChangeFilter(config.CLOUD.ALLOWED),
    names: deps.view ? new RemoteNames(deps.view, logger) : undefined,
    mapper: deps.mapper,
    mediaIndex: deps.mediaIndex,
    ingest: deps.ingest,
    clock,
    logger,
  };
  for (const state of poller.logs.all()) poller.cache.setRoot(state.rootId, state.rootName);
  if (config.CLOUD.ALLOWED.FILE_PATHS.length === 0 && !deps.view?.scope) {
    logger.warn("CLOUD.ALLOWED.FILE_PATHS is empty: files anywhere on the watched drives are considered");
  }

  const intervalMs = Math.max(1, config.CLOUD.POLL_INTERVAL) * 1000;
  let watched: WatchedLog[] | undefined;
  let running: Promise<void> | undefined;
  let timer: unknown;
  let stopped = false;
  let last: { ok: boolean; at: number } | undefined;

  async function runPoll(): Promise<void> {
    try {
      watched ??= await listWatchedLogs(poller.api, deps.view?.logs ?? logsOfConfig(config), logger);
    } catch (error) {
      logger.error({ error: messageOf(error) }, "Could not list the shared drives to watch; retrying at the next poll");
      finished(false);
      return;
    }
    let ok = true;
    for (const log of watched) {
      if (stopped) return;
      try {
        const stats = await pollLog(log, poller);
        if (stats && stats.changes > 0) logger.info({ drive: log.name ?? log.logKey, ...stats }, "Drive changes processed");
      } catch (error) {
        ok = false;
        logger.error(
          { drive: log.name ?? log.logKey, error: messageOf(error) },
          "Drive poll failed; it resumes from the last committed page at the next poll",
        );
      }
    }
    finished(ok);
  }

  function finished(ok: boolean): void {
    last = { ok, at: clock.now() };
    deps.onPoll?.(ok);
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    clock.clearTimeout(timer);
    timer = clock.setTimeout(() => void pollNow(), delayMs);
  }

  function pollNow(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) return running;
    clock.clearTimeout(timer);
    running = runPoll().finally(() => {
      running = undefined;
      schedule(intervalMs);
    });
    return running;
  }

  schedule(0);
  return {
    pollNow,
    lastPoll: () => last,
    async stop() {
      stopped = true;
      clock.clearTimeout(timer);
      abort.abort();
      await running;
    },
  };
}

/** My Drive, and the shared drives CLOUD.TEAMDRIVES names when CLOUD.TEAMDRIVE is on. */
function logsOfConfig(config: Config): LogChoice {
  return { myDrive: true, sharedDrives: config.CLOUD.TEAMDRIVE ? config.CLOUD.TEAMDRIVES : [] };
}
