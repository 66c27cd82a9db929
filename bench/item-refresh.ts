// Item lookups for 1,000 subtitle requests (Bazarr-style, 10 per movie) over 100 movie folders of
// a 50,000-movie Plex section, through the way in (createIngest), the queue, the scheduler and the
// real Plex target over HTTP to the fake Plex, on an injected clock. Cases: the lookup through
// Plex's folder view (no PLEX_DATABASE_PATH), through the library database, and as a reference the
// same requests naming the videos themselves (plain imports: folder scans, no lookup at all).
// Target: at most one listing per folder per scan, never one per file; exits 1 otherwise.
// Run: node --import tsx bench/item-refresh.ts [movies] [folders] [subtitlesPerFolder]
import { withPlexEntry } from "../src/config/plex-entry.js";
import { rmSync } from "node:fs";
import path from "node:path";
import { createIngest } from "../src/ingest/pipeline.js";
import { createPathMapper } from "../src/paths/index.js";
import { ScanQueue } from "../src/queue/scan-queue.js";
import { QueueReads } from "../src/queue/views/queue-reads.js";
import { startDelivery } from "../src/delivery/scheduler.js";
import { buildTargets } from "../src/targets/build-targets.js";
import { until } from "./lib/until.js";
import { plexQueueSetup } from "./lib/plex-queue-setup.js";
import { startFakePlex, type FakePlex } from "../test/fakes/plex.js";
import { buildPlexItemsDb } from "../test/scan/helpers/plex-db.js";

const [movies = 50_000, folderCount = 100, perFolder = 10] = process.argv.slice(2).map(Number);
const LANGUAGES = ["en", "en.forced", "fr", "de", "es", "it", "pt", "nl", "sv", "ja", "ko", "zh", "ru", "pl", "fi"];
const SECTION = { key: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] };
const movieDir = (i: number) => `/data/Movies/Movie ${String(i).padStart(5, "0")} (2000)`;
const videoOf = (i: number) => `${movieDir(i)}/Movie ${String(i).padStart(5, "0")} (2000).mkv`;

type Case = "folder view" | "database" | "reference: plain imports";

interface Figures {
  case: Case;
  requests: number;
  scans: number;
  rootListings: number;
  folderListings: number;
  itemRefreshes: number;
  sectionScans: number;
  otherCalls: number;
  done: number;
  ms: number;
  /** CPU of this process (scanarr and the in-process fake Plex together). */
  cpuMs: number;
}

/** The section with `movies` movies, one per folder; the database of it when asked for. */
async function library(withDb: boolean): Promise<{ plex: FakePlex; databasePath: string }> {
  const plex = await startFakePlex({ sections: [SECTION] });
  const rows = [];
  for (let i = 0; i < movies; i++) rows.push({ file: videoOf(i), section: 1, ratingKey: Number(plex.addItem(videoOf(i)).ratingKey) });
  const databasePath = withDb ? buildPlexItemsDb([{ id: 1, name: "Movies", type: 1, locations: SECTION.locations }], rows) : "";
  return { plex, databasePath };
}

async function runCase(name: Case): Promise<Figures> {
  const { plex, databasePath } = await library(name === "database");
  const { dir, db, clock, logger, config } = plexQueueSetup("item-refresh", plex, { PLEX_DATABASE_PATH: databasePath });
  const targets = await buildTargets(withPlexEntry(config), { logger, clock, env: process.env });
  const queue = new ScanQueue({ db, clock, targets: targets.map((t) => t.target.name), delayMs: 0, logger });
  const reads = new QueueReads(db, clock);
  const ingest = createIngest({ mapper: createPathMapper({}), ignoreList: [], sink: { enqueue: async (r) => queue.enqueue(r) } });
  // Spread the chosen movies over the section, so their folders are not the first ones listed.
  const chosen = Array.from({ length: folderCount }, (_, i) => Math.floor((i * movies) / folderCount));
  for (const i of chosen) {
    for (const language of LANGUAGES.slice(0, perFolder)) {
      const file = name === "reference: plain imports" ? videoOf(i) : videoOf(i).replace(/\.mkv$/, `.${language}.srt`);
      await ingest([{ path: file, kind: "file" }], "bazarr", "Manual");
    }
  }
  const started = performance.now();
  const cpu = process.cpuUsage();
  const delivery = startDelivery({ queue, targets, clock, logger });
  clock.advance(0);
  await until(() => reads.recent(folderCount).filter((s) => s.state === "done").length >= folderCount, "every scan to be done", 600_000, 1);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const count = (test: (url: string, method: string) => boolean) => plex.requests.filter((r) => test(r.url, r.method)).length;
  const figures: Figures = {
    case: name,
    requests: folderCount * perFolder,
    scans: reads.recent(10 * folderCount).length,
    rootListings: count((url) => /\/folder(\?X-Plex|$)/.test(url) || url.endsWith("/folder")),
    folderListings: count((url) => url.includes("/folder")),
    itemRefreshes: count((url, method) => method === "PUT" && url.endsWith("/refresh")),
    sectionScans: plex.refreshes.length,
    otherCalls: 0,
    done: reads.recent(10 * folderCount).filter((s) => s.state === "done").length,
    ms,
    cpuMs: (used.user + used.system) / 1000,
  };
  figures.otherCalls =
    plex.requests.length - figures.folderListings - figures.itemRefreshes - figures.sectionScans - count((u) => u === "/library/sections");
  await delivery.stop(1_000);
  db.close();
  await plex.close();
  rmSync(dir, { recursive: true, force: true });
  if (databasePath) rmSync(path.dirname(databasePath), { recursive: true, force: true });
  return figures;
}

const results: Figures[] = [];
for (const name of ["reference: plain imports", "folder view", "database"] as const) results.push(await runCase(name));
const reference = results[0] as Figures;
console.log(`${folderCount * perFolder} requests over ${folderCount} movie folders of a ${movies}-movie section (${perFolder} per folder)`);
console.table(
  results.map((r) => ({
    case: r.case,
    scans: r.scans,
    "section scans": r.sectionScans,
    "folder listings (root)": `${r.folderListings} (${r.rootListings})`,
    "item refreshes": r.itemRefreshes,
    "other calls": r.otherCalls,
    "scans done": r.done,
    "wall ms": Math.round(r.ms),
    "CPU ms": Math.round(r.cpuMs),
    "× reference CPU": (r.cpuMs / reference.cpuMs).toFixed(2),
  })),
);
const [, api, database] = results as [Figures, Figures, Figures];
const ok =
  api.folderListings <= 2 * folderCount &&
  api.rootListings <= folderCount &&
  database.folderListings === 0 &&
  [api, database].every((r) => r.itemRefreshes === folderCount && r.sectionScans === 0 && r.done === folderCount && r.otherCalls === 0);
if (!ok) process.exitCode = 1;
