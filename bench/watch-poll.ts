/**
 * Poll-mode watcher cost on a generated tree (default 10,000 folders and
 * 100,000 files, all dated an hour back like a library that has been there a
 * while), with a real SQLite file: stat and readdir calls and wall time for
 * the first round (the snapshot is built), an unchanged round, and a round
 * after 100 new files were written into 100 season folders — for DETECT
 * "mtime" (local disks, NFS) and "listing" (rclone and other FUSE mounts).
 *
 *   node --import tsx bench/watch-poll.ts [folders] [files] [newFiles]
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ScanRequest } from "../src/domain.js";
import { ManualClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { createIngest } from "../src/ingest/pipeline.js";
import { createPathMapper } from "../src/paths/mapper.js";
import { openDatabase } from "../src/queue/storage/database.js";
import { emitDueFolders } from "../src/watch/emit.js";
import { createPathFilter } from "../src/watch/filter.js";
import { nodeWatchFs, type WatchFs } from "../src/watch/fs.js";
import { PollWatcher } from "../src/watch/poll-watcher.js";
import { WatchStore } from "../src/watch/store.js";

const [folderCount = 10_000, fileCount = 100_000, newFiles = 100] = process.argv.slice(2).map(Number);
const SEASONS_PER_SHOW = 9;

const dir = mkdtempSync(path.join(tmpdir(), "scanarr-bench-watch-"));
const root = path.join(dir, "media");
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
const seasons = generate();
const rows: string[][] = [];
for (const detect of ["mtime", "listing"] as const) await runCase(detect);

console.log(
  `tree: ${seasons.length + Math.ceil(seasons.length / SEASONS_PER_SHOW) + 1} folders, ${fileCount} files; ${newFiles} new files in ${newFiles} season folders`,
);
console.log(["DETECT", "round", "stat", "readdir", "wall ms", "scan requests"].join(" | "));
for (const row of rows) console.log(row.join(" | "));

async function runCase(detect: "mtime" | "listing"): Promise<void> {
  const db = openDatabase(path.join(dir, `${detect}.db`));
  const counter = { stats: 0, readdirs: 0 };
  const fs: WatchFs = {
    stat: (p) => {
      counter.stats++;
      return nodeWatchFs.stat(p);
    },
    readdir: (p) => {
      counter.readdirs++;
      return nodeWatchFs.readdir(p);
    },
  };
  const queued: ScanRequest[] = [];
  const logger = silentLogger();
  const watcher = new PollWatcher({
    root: { root, mode: "poll", minAgeMs: 0, intervalMs: 1e12, detect, ignore: [] },
    store: new WatchStore(db),
    fs,
    filter: createPathFilter([], []),
    clock: new ManualClock(),
    logger,
    anchorsOk: () => true,
    emit: (due) =>
      emitDueFolders(due, {
        ingest: createIngest({
          mapper: createPathMapper({}),
          ignoreList: [],
          sink: {
            enqueue: async (r) => {
              queued.push(...r);
              return { queued: [], covered: [] };
            },
          },
        }),
        logger,
      }),
  });
  const measure = async (name: string) => {
    counter.stats = 0;
    counter.readdirs = 0;
    const before = queued.length;
    const start = performance.now();
    await watcher.runRound();
    rows.push([
      detect,
      name,
      String(counter.stats),
      String(counter.readdirs),
      (performance.now() - start).toFixed(0),
      String(queued.length - before),
    ]);
  };
  await measure("first (snapshot built)");
  await measure("unchanged");
  await measure("unchanged again");
  const added = seasons.slice(0, newFiles).map((season, i) => path.join(season, `new.${detect}.${i}.mkv`));
  for (const file of added) writeFileSync(file, "x");
  await measure(`${newFiles} new files (queued at once: MIN_AGE 0)`);
  await measure("next round");
  await watcher.stop();
  db.close();
}

/** Shows of nine seasons each; files spread evenly over the seasons. */
function generate(): string[] {
  const shows = Math.max(1, Math.floor((folderCount - 1) / (SEASONS_PER_SHOW + 1)));
  const list: string[] = [];
  for (let s = 0; s < shows; s++) for (let n = 1; n <= SEASONS_PER_SHOW; n++) list.push(path.join(root, `Show ${s}`, `Season ${n}`));
  for (const season of list) mkdirSync(season, { recursive: true });
  for (let f = 0; f < fileCount; f++) writeFileSync(path.join(list[f % list.length] as string, `episode.${f}.mkv`), "");
  const old = new Date(Date.now() - 3_600_000);
  for (let f = 0; f < fileCount; f++) utimesSync(path.join(list[f % list.length] as string, `episode.${f}.mkv`), old, old);
  for (const season of list) utimesSync(season, old, old);
  for (let s = 0; s < shows; s++) utimesSync(path.join(root, `Show ${s}`), old, old);
  utimesSync(root, old, old);
  return list;
}
