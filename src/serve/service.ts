import type { Server } from "node:http";
import { availableParallelism } from "node:os";
import type { Config } from "../config/types.js";
import type { Target, TargetRuntime } from "../domain.js";
import type { Clock } from "../lib/clock.js";
import type { InstallPaths } from "../lib/install-paths.js";
import type { Logger } from "../lib/logger.js";
import { createIngest } from "../ingest/pipeline.js";
import { createServerMapper, createSourceTable } from "../ingest/sources.js";
import { openQueueStorage, type QueueStorage } from "../queue/storage/queue-storage.js";
import { createGroupCommit } from "../queue/group-commit.js";
import { createCommitThread, type WriterSettings } from "../queue/thread/commit-thread.js";
import { ScanQueue } from "../queue/scan-queue.js";
import { QueueReads } from "../queue/views/queue-reads.js";
import { startDelivery, type DeliveryHandle } from "../delivery/scheduler.js";
import { createAnchorGate } from "../delivery/anchor-gate.js";
import { createScanServer, listen } from "../server/app.js";
import { createCompatDeps } from "../server/compat/deps.js";
import { idleWatchHandle, type WatchHandle } from "../watch/handle.js";
import { buildTargets, runtimeOfTarget } from "../targets/build-targets.js";
import { trackConnections } from "../server/graceful-close.js";
import { createMountSafety, fileCheckPolicyOf, reportFileChecks } from "../mount/mount-safety.js";
import { pollAnchors } from "../mount/anchor-poll.js";
import { runStartupDoctor } from "../doctor/startup.js";
import { collectStartupGarbageSoon } from "../lib/startup-garbage.js";
import { gatherHealthFacts } from "./health-facts.js";
import type { DriveMonitor } from "../drive/monitor.js";
import { catalogOfTargets } from "./target-catalog.js";
import { startDriveWiring, type DriveHandle } from "./drive.js";
import { startAfterScan } from "./after-scan.js";
import { wireDashboard } from "./dashboard-wiring.js";
import { startHoldSync } from "./hold-sync.js";
import { createDashboardLogin } from "../server/login/dashboard-login.js";
import { startNotifications } from "./notifications.js";

export interface ServiceDeps {
  config: Config;
  paths: InstallPaths;
  logger: Logger;
  clock: Clock;
  env: NodeJS.ProcessEnv;
  /** Replaces the targets built from the config (tests). */
  target?: Target;
  /** Per-request time-out of the HTTP targets (tests pass a short one; 30 s by default). */
  targetTimeoutMs?: number;
  /**
   * How often the anchors are looked at while nothing asks (for /health and
   * the watchers), and how soon missing anchors are looked for again before
   * due scans go out; 10 s by default.
   */
  anchorPollMs?: number;
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

/** How long stop() waits for requests already received to be answered before cutting their connections. */
const HTTP_DRAIN_LIMIT_MS = 10_000;

/**
 * Builds and starts everything `scanarr serve` runs; the composition root.
 * Order matters: the instance lock before the database is touched (a second
 * serve must change nothing), the port before any delivery starts (a serve
 * that cannot bind must not have claimed work).
 */
export async function startService(deps: ServiceDeps): Promise<RunningService> {
  const { dataDir, database } = deps.paths;
  const storage = openQueueStorage({ dataDir, database, clock: deps.clock, logger: deps.logger });
  try {
    return await startWithStorage(deps, storage);
  } catch (error) {
    await storage.close();
    throw error;
  }
}

async function startWithStorage(deps: ServiceDeps, storage: QueueStorage): Promise<RunningService> {
  const { config, logger, clock } = deps;
  const { db } = storage;
  const mapper = createServerMapper(config);
  const shutdown = new AbortController();
  const targets = await buildAll(deps, shutdown.signal);
  const catalog = catalogOfTargets(targets);
  const mount = createMountSafety(config, { logger, clock, libraryRootsOf: (path) => catalog.libraryRootsOf(path) });
  const anchors = mount.anchors.anchors.length > 0 ? mount.anchors : undefined;
  const writing: WriterSettings = {
    fileChecks: fileCheckPolicyOf(config),
    targets: targets.map((b) => b.target.name),
    delayMs: config.SERVER_SCAN_DELAY * 1000,
    priorities: config.SERVER_SCAN_PRIORITIES,
  };
  // Interrupted deliveries are resumed by the storage (recover: false), so a full disk only puts it off.
  const queue = new ScanQueue({ ...writing, db, clock, logger, recover: false });
  storage.attach(queue);
  // Under a burst the group commit's writes go to a thread of their own (queue/thread/); on one
  // CPU a second thread only adds the copies to and from it.
  const commitThread = createCommitThread({
    enabled: availableParallelism() > 1,
    file: storage.file,
    settings: writing,
    retell: (events) => queue.retell(events),
    canShare: storage.shared,
    now: () => clock.now(),
    logger,
  });
  let delivery: DeliveryHandle | undefined;
  let drive: DriveHandle | undefined;
  let watch: WatchHandle | undefined;
  // The one way in for every source: webhooks, manual scans, /triggers, the watchers and drive monitoring.
  const sources = createSourceTable(config);
  const ingest = createIngest({
    mapper,
    ignoreList: config.SERVER_IGNORE_LIST,
    sources,
    catalog,
    sink: createGroupCommit(queue, (fn) => queue.batch(fn), ScanQueue.checkRequests, undefined, storage.watch, commitThread),
    logger,
  });
  const status = () => ({
    target: targets[0]?.target.name,
    targets: delivery?.targetStates() ?? {},
    drive: config.CLOUD.ENABLED ? (drive?.problem ? { running: false, problem: drive.problem } : { running: true }) : { running: false },
    watch: watch?.status() ?? [],
  });
  const health = () =>
    gatherHealthFacts({
      config,
      targets,
      mount,
      delivery: () => delivery,
      drive: () => drive,
      watch: () => watch?.status() ?? [],
      databaseProblem: storage.watch.problem,
    });
  const wiring = await wireDashboard({ config, db, clock, queue, mapper, targets, status, health, anchors });
  const compat = createCompatDeps(config, { clock, catalog, sources });
  const login = { username: config.SERVER_USERNAME, passwordHash: config.SERVER_PASSWORD_HASH };
  const server = createScanServer({
    pass: config.SERVER_PASS,
    queue: new QueueReads(db, clock),
    ingest,
    logger,
    clock,
    mapper,
    allowManual: config.SERVER_ALLOW_MANUAL_SCAN,
    compat,
    login: createDashboardLogin({ login, clock, logger, basic: compat.basicAuth }),
    status,
    dashboard: wiring.dashboard,
    metrics: wiring.metrics,
    health,
  });
  const connections = trackConnections(server);
  let address: Awaited<ReturnType<typeof listen>>;
  try {
    address = await listen(server, config.SERVER_IP, config.SERVER_PORT);
  } catch (error) {
    shutdown.abort();
    await mount.close();
    throw error;
  }
  storage.startCheckpointing();
  const pending = queue.countPending();
  if (pending > 0) logger.info({ pending }, "resuming pending scans from the queue");
  for (const b of targets) b.start();
  reportFileChecks(config, logger);
  // Anchors are looked at now and every anchorPollMs, so /health and the watchers know the mounts
  // even while no scan is due (a due scan checks them itself before it goes out).
  // What holds deliveries back is written down when it changes, for the pages and `scanarr status`.
  const holds = startHoldSync({
    queue,
    logger,
    anchors: () => (anchors ? mount.status().anchors : undefined),
    targets: () => delivery?.targetStates() ?? {},
  });
  const watchedAnchors = anchors && holds.watchAnchors(anchors);
  // The one gate before every call that makes a media server read the mount, shared by deliveries and after-scan work.
  const gate = watchedAnchors && createAnchorGate(watchedAnchors, clock);
  const anchorPoll = watchedAnchors ? pollAnchors(watchedAnchors, clock, deps.anchorPollMs ?? 10_000) : undefined;
  const notifications = await startNotifications({ config, clock, logger, queue, delivery: () => delivery, drive: () => drive, anchors });
  // After the scan (issue 11): hooks, and the confirmation, analyze and empty trash of each target that has them.
  const afterScan = startAfterScan({
    config,
    queue,
    targets,
    env: deps.env,
    clock,
    logger,
    signal: shutdown.signal,
    gate,
  });
  delivery = startDelivery({
    queue,
    targets,
    clock,
    logger,
    around: afterScan.around,
    policy: { concurrencyPerTarget: config.SERVER_DELIVERY_CONCURRENCY },
    fileChecker: mount.files,
    anchors: gate,
    storage: storage.watch,
    anchorRetryMs: deps.anchorPollMs,
  });
  storage.watch.onWritable(() => delivery?.wake());
  const onPoll = wiring.metrics?.drivePoll;
  // The drive's own SOURCES rewrites decide which files have a media-server path, as the pipeline will map them.
  const driveMapper = sources.settingsFor("drive")?.mapper ?? mapper;
  drive = await startDriveWiring({
    config,
    db,
    ingest,
    mapper: driveMapper,
    tokenFile: deps.paths.tokenFile,
    remoteTokenFile: deps.paths.remoteTokenFile,
    env: deps.env,
    logger,
    clock,
    onPoll,
  });
  // While an anchor is missing the watchers record nothing (a dropped mount is not a mass delete).
  const anchorsOk = () => !anchors || mount.status().anchors?.ok === true;
  // The watchers' modules load only with a WATCH (issue 26: pay for what is on).
  watch =
    config.WATCH.length === 0
      ? idleWatchHandle()
      : (await import("../watch/start.js")).startWatchers({
          entries: config.WATCH,
          db,
          ingest,
          ignoreList: config.SERVER_IGNORE_LIST,
          clock,
          logger,
          anchorsOk,
        });
  // Its checks are start-up's last work; then what start-up allocated is given back (issue 26).
  void runStartupDoctor({ config, paths: deps.paths, logger, targets }).finally(() => collectStartupGarbageSoon());
  const running = { delivery, drive, watch };
  return {
    host: address.address,
    port: address.port,
    server,
    drive: drive.monitor,
    async stop() {
      // New connections are refused at once; requests already received are answered (the queue
      // stays open for them) while deliveries in flight finish.
      const http = connections.drain(HTTP_DRAIN_LIMIT_MS);
      await running.drive.stop();
      await running.watch.stop();
      await running.delivery.stop(10_000);
      holds.stop();
      await afterScan.stop();
      await notifications.stop();
      wiring.stop();
      anchorPoll?.stop();
      await mount.close();
      shutdown.abort();
      const { forced } = await http;
      if (forced > 0) logger.warn({ connections: forced }, `closed ${forced} connections still busy after ${HTTP_DRAIN_LIMIT_MS / 1000} s`);
      await commitThread.stop();
      await storage.close();
    },
  };
}

/** The configured targets, or the one a test passes; their periodic library fetch stops with the service. */
async function buildAll(deps: ServiceDeps, signal: AbortSignal): Promise<TargetRuntime[]> {
  const { config, logger, clock, env } = deps;
  const built = deps.target
    ? [runtimeOfTarget(deps.target, { clock, logger })]
    : await buildTargets(config, { logger, clock, env, signal, timeoutMs: deps.targetTimeoutMs });
  signal.addEventListener("abort", () => {
    for (const b of built) b.stop();
  });
  return built;
}
