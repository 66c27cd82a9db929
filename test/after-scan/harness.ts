import { withPlexEntry } from "../../src/config/plex-entry.js";
import { createMountSafety, type MountSafety } from "../../src/mount/mount-safety.js";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import type { ScanRequest } from "../../src/domain.js";
import { ManualClock } from "../../src/lib/clock.js";
import type { Database } from "../../src/queue/storage/database.js";
import { createAnchorGate } from "../../src/delivery/anchor-gate.js";
import { ScanQueue } from "../../src/queue/scan-queue.js";
import { QueueReads } from "../../src/queue/views/queue-reads.js";
import { startDelivery, type DeliveryHandle } from "../../src/delivery/scheduler.js";
import type { QueuedScan } from "../../src/queue/types.js";
import { startAfterScan, type AfterScanWiring } from "../../src/serve/after-scan.js";
import { buildTargets } from "../../src/targets/build-targets.js";
import { startFakePlex, type FakePlex, type FakePlexOptions } from "../fakes/plex.js";
import { capturingLogger, flush, tempDatabase } from "../queue/helpers.js";
import { waitFor } from "../helpers/service.js";

export const TV_SECTIONS = [
  { key: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] },
  { key: "2", title: "TV Shows", type: "show", locations: ["/data/TV"] },
];

/**
 * The queue, the scheduler and the after-scan wiring exactly as `serve` builds
 * them (src/serve/after-scan.ts), against the fake Plex over real HTTP,
 * with a ManualClock: the requests name files, which the HTTP ingest does not
 * pass on yet.
 */
export interface AfterScanRig {
  plex: FakePlex;
  clock: ManualClock;
  queue: ScanQueue;
  /** The scans as shown (the read side). */
  reads: QueueReads;
  db: Database;
  config: Config;
  lines: Array<Record<string, unknown>>;
  enqueue(...requests: ScanRequest[]): void;
  /** The scan of `folder` as /api/queue lists it (recent history included). */
  scanOf(folder: string): QueuedScan | undefined;
  /** Moves the clock in steps, letting each step's HTTP calls finish, until `done` holds. */
  runUntil(done: () => boolean, what: string, stepMs?: number, maxMs?: number): Promise<void>;
  /** Stops the scheduler and the after-scan driver (as serve's stop does); the database stays open. */
  stop(): Promise<void>;
  /** A new scheduler and driver over a reopened database, as after a restart. */
  restart(): Promise<void>;
}

export async function startRig(overrides: Partial<Config> = {}, plexOptions: FakePlexOptions = {}): Promise<AfterScanRig> {
  const plex = await startFakePlex({ sections: TV_SECTIONS, ...plexOptions });
  const clock = new ManualClock();
  const { logger, lines } = capturingLogger();
  const config: Config = {
    ...defaultConfig("0123456789abcdef0123456789abcdef"),
    PLEX_LOCAL_URL: plex.url,
    PLEX_TOKEN: plex.token,
    PLEX_CONFIRM_POLL_INTERVAL: 10,
    PLEX_CONFIRM_RESCAN_DELAY: 60,
    ...overrides,
  };
  const temp = tempDatabase();
  let db = temp.db;
  let controller: AbortController;
  let queue!: ScanQueue;
  let afterScan!: AfterScanWiring;
  let delivery!: DeliveryHandle;
  let mount!: MountSafety;
  const start = async () => {
    controller = new AbortController();
    queue = new ScanQueue({ db, clock, targets: ["plex"], delayMs: 0, logger });
    const targets = await buildTargets(withPlexEntry(config), {
      logger,
      clock,
      env: process.env,
      signal: controller.signal,
      timeoutMs: 5_000,
    });
    mount = createMountSafety(config, { logger, clock });
    // One gate for the deliveries and the after-scan work, as serve builds it.
    const gate = mount.anchors.anchors.length > 0 ? createAnchorGate(mount.anchors, clock) : undefined;
    afterScan = startAfterScan({
      config,
      queue,
      targets,
      env: process.env,
      clock,
      logger,
      signal: controller.signal,
      gate,
    });
    delivery = startDelivery({ queue, targets, clock, logger, around: afterScan.around, ...(gate ? { anchors: gate } : {}) });
    rig.queue = queue;
    rig.reads = new QueueReads(db, clock);
    rig.db = db;
  };
  const stopAll = async () => {
    await delivery.stop(1_000);
    await afterScan.stop();
    await mount.close();
    controller.abort();
  };
  const rig: AfterScanRig = {
    plex,
    clock,
    queue,
    reads: new QueueReads(db, clock),
    db,
    config,
    lines,
    enqueue: (...requests) => {
      rig.queue.enqueue(requests);
    },
    scanOf: (folder) => rig.reads.recent(100).find((s) => s.folder === folder),
    async runUntil(done, what, stepMs = 1_000, maxMs = 600_000) {
      for (let moved = 0; !done(); moved += stepMs) {
        if (moved > maxMs) throw new Error(`clock moved ${maxMs} ms without ${what}`);
        await idle(rig);
        if (done()) return;
        clock.advance(stepMs);
        await idle(rig);
      }
    },
    stop: stopAll,
    async restart() {
      await stopAll();
      db.close();
      db = temp.reopen();
      await start();
    },
  };
  await start();
  return rig;
}

/** Waits until no scan call, poll or settle of the rig is under way: the fake Plex saw no new request for a while. */
async function idle(rig: AfterScanRig): Promise<void> {
  let seen = -1;
  let quietSince = Date.now();
  await waitFor(
    () => {
      if (rig.plex.requests.length !== seen) {
        seen = rig.plex.requests.length;
        quietSince = Date.now();
      }
      return Date.now() - quietSince >= 30;
    },
    5_000,
    "the rig to go quiet",
  );
  await flush();
}
