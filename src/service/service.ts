import type { Server } from "node:http";
import type { Config } from "../config/types.js";
import type { Target } from "../domain.js";
import type { Clock } from "../lib/clock.js";
import type { InstallPaths } from "../lib/install-paths.js";
import type { Logger } from "../lib/logger.js";
import { createPathMapper } from "../paths/mapper.js";
import { openDatabase } from "../queue/database.js";
import { createGroupCommit } from "../queue/group-commit.js";
import { ScanQueue } from "../queue/scan-queue.js";
import { startDelivery, type DeliveryHandle } from "../queue/scheduler.js";
import { createScanServer, listen } from "../server/app.js";
import { createCompatDeps } from "../server/compat/deps.js";
import { startWatchers } from "../watch/start.js";
import { createPlexTarget } from "../targets/plex/plex-target.js";
import { createScannerTargetFromConfig } from "../targets/plex/scanner-target.js";
import type { DriveMonitor } from "../drive/monitor.js";
import { catalogOf } from "./catalog.js";
import { startDriveWiring } from "./drive.js";

export interface ServiceDeps {
  config: Config;
  paths: InstallPaths;
  logger: Logger;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  /** Replaces the target built from the config (tests). */
  target?: Target;
}

export interface RunningService {
  host: string;
  port: number;
  server: Server;
  /** The drive monitor when CLOUD.ENABLED and credentials were found. */
  drive: DriveMonitor | undefined;
  /** Stops accepting, finishes deliveries in flight (bounded), closes the database. */
  stop(): Promise<void>;
}

/** Builds and starts everything `scanarr serve` runs; the composition root. */
export async function startService(deps: ServiceDeps): Promise<RunningService> {
  const { config, logger, clock } = deps;
  const mapper = createPathMapper(config.SERVER_PATH_MAPPINGS);
  const shutdown = new AbortController();
  const target = deps.target ?? buildTarget(deps, shutdown.signal);
  const db = openDatabase(deps.paths.database);
  const queue = new ScanQueue({
    db,
    clock,
    targets: [target.name],
    delayMs: config.SERVER_SCAN_DELAY * 1000,
    priorities: config.SERVER_SCAN_PRIORITIES,
    logger,
  });
  const pending = queue.countPending();
  if (pending > 0) logger.info({ pending }, "resuming pending scans from the queue");
  const delivery: DeliveryHandle = startDelivery({ queue, targets: [target], clock, logger });
  const drive = await startDriveWiring({ config, db, sink: queue, mapper, tokenFile: deps.paths.tokenFile, logger, clock });
  const sink = { enqueue: createGroupCommit(queue, db, ScanQueue.checkRequests) };
  // anchorsOk: the integrator connects the anchor check (issue 10) here.
  const watch = startWatchers({ entries: config.WATCH, db, sink, mapper, ignoreList: config.SERVER_IGNORE_LIST, clock, logger });
  const server = createScanServer({
    pass: config.SERVER_PASS,
    queue,
    sink,
    logger,
    clock,
    mapper,
    allowManual: config.SERVER_ALLOW_MANUAL_SCAN,
    ignoreList: config.SERVER_IGNORE_LIST,
    libraries: catalogOf(target, clock),
    compat: createCompatDeps(config, { clock }),
    status: () => ({
      target: target.name,
      targets: delivery.targetStates(),
      drive: config.CLOUD.ENABLED ? (drive.problem ? { running: false, problem: drive.problem } : { running: true }) : { running: false },
      watch: watch.status(),
    }),
  });
  let address: Awaited<ReturnType<typeof listen>>;
  try {
    address = await listen(server, config.SERVER_IP, config.SERVER_PORT);
  } catch (error) {
    await delivery.stop(1_000);
    await drive.stop();
    await watch.stop();
    db.close();
    throw error;
  }
  return {
    host: address.address,
    port: address.port,
    server,
    drive: drive.monitor,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await drive.stop();
      await watch.stop();
      await delivery.stop(10_000);
      shutdown.abort();
      server.closeAllConnections();
      await closed;
      db.close();
    },
  };
}

function buildTarget(deps: ServiceDeps, signal: AbortSignal): Target {
  if (deps.config.PLEX_SCAN_METHOD === "scanner") {
    return createScannerTargetFromConfig(deps.config, { env: deps.env, logger: deps.logger, signal });
  }
  const target = createPlexTarget(deps.config, { clock: deps.clock, logger: deps.logger });
  // Fetches the libraries now and then periodically; a failure is logged, never thrown.
  target.start();
  signal.addEventListener("abort", () => target.stop(), { once: true });
  return target;
}
