// Plex calls for 1,000 imported episodes (one Sonarr request each) over 100 season folders in
// 3 sections, with confirmation and analyze on, through the queue and serve's after-scan wiring
// (ScanQueue, startDelivery, startAfterScan, buildTargets) against the fake Plex over HTTP, on an
// injected clock: scan calls = folders; one sections poll per poll interval, shared by every
// waiting scan of every section; analyze calls = items.
// Run: node --import tsx bench/after-scan.ts
import { withPlexEntry } from "../src/config/plex-entry.js";
import { rmSync } from "node:fs";
import path from "node:path";
import { ScanQueue } from "../src/queue/scan-queue.js";
import { QueueReads } from "../src/queue/views/queue-reads.js";
import { startDelivery } from "../src/delivery/scheduler.js";
import { startAfterScan } from "../src/serve/after-scan.js";
import { buildTargets } from "../src/targets/build-targets.js";
import { until } from "./lib/until.js";
import { plexQueueSetup } from "./lib/plex-queue-setup.js";
import { startFakePlex } from "../test/fakes/plex.js";
import { buildDatabase, EPISODES_PER_SEASON, layout, SECTIONS } from "./lib/after-scan-layout.js";

/** Polls a section stays `refreshing` after the scans (a busy Plex). */
const REFRESH_POLLS = 3;
const POLL_MS = 10_000;

interface Figures {
  lookup: string;
  requests: number;
  scans: number;
  intervals: number;
  sectionPolls: number;
  folderListings: number;
  analyzeCalls: number;
  done: number;
  otherCalls: number;
  deliverMs: number;
  confirmMs: number;
  confirmCpuMs: number;
}

async function runCase(lookup: "api" | "database"): Promise<Figures> {
  const plex = await startFakePlex({ sections: SECTIONS, refreshDuration: REFRESH_POLLS });
  const folders = layout();
  for (const folder of folders) for (const file of folder.files) plex.addFile(file);
  const databasePath = lookup === "database" ? buildDatabase(plex, folders) : "";
  const { dir, db, clock, logger, config } = plexQueueSetup("after-scan", plex, {
    PLEX_DATABASE_PATH: databasePath,
    PLEX_CONFIRM_SCANS: true,
    PLEX_CONFIRM_POLL_INTERVAL: POLL_MS / 1000,
    PLEX_ANALYZE_TYPE: "basic",
  });
  const controller = new AbortController();
  const targets = await buildTargets(withPlexEntry(config), { logger, clock, env: process.env, signal: controller.signal });
  const queue = new ScanQueue({ db, clock, targets: targets.map((t) => t.target.name), delayMs: 0, logger });
  const reads = new QueueReads(db, clock);
  // Every poll ends by asking when the next delivery falls due (to arm the next one): the bench's "poll done".
  let pollsEnded = 0;
  const watched = Object.assign(Object.create(queue) as ScanQueue, {
    nextConfirmDue: (target: string) => {
      pollsEnded += 1;
      return queue.nextConfirmDue(target);
    },
  });
  const afterScan = startAfterScan({
    config,
    queue: watched,
    targets,
    env: process.env,
    clock,
    logger,
    signal: controller.signal,
    // No anchor is configured: no gate.
    gate: undefined,
  });
  const delivery = startDelivery({ queue, targets, clock, logger, around: afterScan.around });

  for (const folder of folders) {
    for (const file of folder.files) queue.enqueue([{ folder: folder.path, source: "sonarr", event: "Download", files: [file] }]);
  }
  const deliverStarted = performance.now();
  clock.advance(0);
  await plex.waitForRefreshes(folders.length, 120_000);
  const deliverMs = performance.now() - deliverStarted;
  await until(() => reads.listPending(1_000).every((s) => s.state === "confirming"), "every delivery to be recorded");

  const before = plex.requests.length;
  const confirmStarted = performance.now();
  const cpu = process.cpuUsage();
  let intervals = 0;
  while (queue.countConfirming("plex") > 0) {
    if (intervals >= 50) throw new Error("still confirming after 50 poll intervals");
    const ended = pollsEnded;
    clock.advance(POLL_MS);
    intervals += 1;
    await until(() => pollsEnded > ended, `poll ${intervals} to end`);
  }
  const used = process.cpuUsage(cpu);
  const confirmMs = performance.now() - confirmStarted;

  const during = plex.requests.slice(before);
  const count = (test: (url: string, method: string) => boolean) => during.filter((r) => test(r.url, r.method)).length;
  const figures: Figures = {
    lookup,
    requests: folders.length * EPISODES_PER_SEASON,
    scans: plex.refreshes.length,
    intervals,
    sectionPolls: count((url) => url === "/library/sections"),
    folderListings: count((url) => url.includes("/folder")),
    analyzeCalls: count((url, method) => method === "PUT" && url.endsWith("/analyze")),
    done: reads.recent(1_000).filter((s) => s.state === "done").length,
    otherCalls: 0,
    deliverMs,
    confirmMs,
    confirmCpuMs: (used.user + used.system) / 1000,
  };
  figures.otherCalls = during.length - figures.sectionPolls - figures.folderListings - figures.analyzeCalls;
  await delivery.stop(1_000);
  await afterScan.stop();
  controller.abort();
  db.close();
  await plex.close();
  rmSync(dir, { recursive: true, force: true });
  if (databasePath) rmSync(path.dirname(databasePath), { recursive: true, force: true });
  return figures;
}

const results = [await runCase("api"), await runCase("database")];
const folderCount = layout().length;
console.log(
  `${folderCount * EPISODES_PER_SEASON} requests (one per episode) over ${folderCount} season folders in ${SECTIONS.length} sections; sections refreshing for ${REFRESH_POLLS} polls; poll interval ${POLL_MS / 1000} s (injected clock)`,
);
console.table(
  results.map((r) => ({
    lookup: r.lookup,
    "scan calls": r.scans,
    "poll intervals": r.intervals,
    "section polls": r.sectionPolls,
    "folder listings": r.folderListings,
    "analyze calls": r.analyzeCalls,
    "scans done": r.done,
    "other calls": r.otherCalls,
    "deliver ms": Math.round(r.deliverMs),
    "confirm ms": Math.round(r.confirmMs),
    "confirm CPU ms": Math.round(r.confirmCpuMs),
  })),
);
const ok = results.every(
  (r) =>
    r.scans === folderCount &&
    r.sectionPolls === r.intervals &&
    r.analyzeCalls === folderCount * EPISODES_PER_SEASON &&
    r.done === folderCount &&
    r.otherCalls === 0,
);
if (!ok) process.exitCode = 1;
