import { existsSync } from "node:fs";
import type { Database } from "better-sqlite3";
import { loadDriveAuth, type DriveAuth } from "../auth/drive-auth.js";
import type { Config } from "../config/types.js";
import { startDriveMonitor, type DriveMonitor, type MediaIndex } from "../drive/monitor.js";
import type { Ingest } from "../ingest/pipeline.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { PathMapper } from "../paths/mapper.js";
import { openPlexLibraryDb } from "../targets/plex/library-db.js";
import { messageOf } from "../lib/errors.js";
import { loadRemoteMonitoring, type RemoteMonitoring } from "../rclone/monitor-remote.js";

export interface DriveWiring {
  config: Config;
  db: Database;
  ingest: Ingest;
  mapper: PathMapper;
  tokenFile: string;
  /** Where CLOUD.RCLONE_REMOTE's refreshed tokens are kept. */
  remoteTokenFile: string;
  /** RCLONE_CONFIG and RCLONE_CONFIG_PASS (rclone.conf and its password). */
  env: NodeJS.ProcessEnv;
  logger: Logger;
  clock: Clock;
  /** Told how each poll ended (the metrics' poll counter). */
  onPoll?: (ok: boolean) => void;
}

export interface DriveHandle {
  monitor: DriveMonitor | undefined;
  /** Why monitoring is off, for /health; undefined when it runs or is disabled. */
  problem: string | undefined;
  stop(): Promise<void>;
}

/**
 * Starts drive monitoring when CLOUD.ENABLED. Missing credentials are logged
 * loudly and leave the HTTP service running: webhooks keep working.
 */
export async function startDriveWiring(w: DriveWiring): Promise<DriveHandle> {
  if (!w.config.CLOUD.ENABLED) return { monitor: undefined, problem: undefined, stop: async () => undefined };
  let auth: DriveAuth;
  let remote: RemoteMonitoring;
  try {
    remote = await loadRemoteMonitoring({ config: w.config, env: w.env, tokenFile: w.remoteTokenFile, logger: w.logger });
    auth = remote.auth ?? (await loadDriveAuth({ config: w.config, tokenFile: w.tokenFile, logger: w.logger }));
  } catch (error) {
    const problem = messageOf(error);
    w.logger.error({ reason: problem }, "drive monitoring is off");
    return { monitor: undefined, problem, stop: async () => undefined };
  }
  const index = openMediaIndex(w.config.PLEX_DATABASE_PATH, w.logger);
  const monitor = startDriveMonitor({
    config: w.config,
    db: w.db,
    ingest: w.ingest,
    mapper: w.mapper,
    mediaIndex: index?.index,
    auth,
    view: remote.view,
    logger: w.logger,
    clock: w.clock,
    onPoll: w.onPoll,
  });
  w.logger.info(
    {
      pollInterval: w.config.CLOUD.POLL_INTERVAL,
      ...(remote.remote
        ? { rcloneRemote: w.config.CLOUD.RCLONE_REMOTE, rcloneConfig: remote.configFile, crypt: remote.remote.crypt !== undefined }
        : { sharedDrives: w.config.CLOUD.TEAMDRIVE ? w.config.CLOUD.TEAMDRIVES : [] }),
    },
    "drive monitoring started",
  );
  return {
    monitor,
    problem: undefined,
    stop: async () => {
      await monitor.stop();
      index?.close();
    },
  };
}

function openMediaIndex(file: string, logger: Logger): { index: MediaIndex; close(): void } | undefined {
  if (!existsSync(file)) {
    logger.warn({ file }, "Plex database not found: every new drive file that passes the filters will be scanned");
    return undefined;
  }
  try {
    const db = openPlexLibraryDb(file);
    return { index: { hasFile: (p) => db.hasFile(p) }, close: () => db.close() };
  } catch (error) {
    logger.warn(
      { file, reason: messageOf(error) },
      "Plex database unreadable: every new drive file that passes the filters will be scanned",
    );
    return undefined;
  }
}
