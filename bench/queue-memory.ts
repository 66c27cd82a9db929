// RSS before and after 100,000 pending folders, and the cost of one more request at that size.
// Run: node --import tsx bench/queue-memory.ts
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ManualClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { openDatabase } from "../src/queue/storage/database.js";
import { ScanQueue } from "../src/queue/scan-queue.js";

const FOLDERS = 100_000;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const settle = () => {
  global.gc?.();
  return process.memoryUsage().rss;
};

const dir = mkdtempSync(path.join(tmpdir(), "scanarr-bench-"));
const file = path.join(dir, "scanarr.db");
const db = openDatabase(file);
const clock = new ManualClock();
const queue = new ScanQueue({ db, clock, targets: ["plex"], delayMs: 180_000, logger: silentLogger() });
const before = settle();

const started = process.hrtime.bigint();
for (let i = 0; i < FOLDERS; i += 1_000) {
  // Batches of 1,000 keep the fill quick; each request still coalesces on its own.
  const batch = Array.from({ length: 1_000 }, (_, j) => ({
    folder: `/data/TV/Show ${Math.floor((i + j) / 10)}/Season ${(i + j) % 10}`,
    source: "bench",
    event: "Fill",
  }));
  queue.enqueue(batch);
}
const fillMs = Number(process.hrtime.bigint() - started) / 1e6;
const after = settle();

const probes: number[] = [];
for (let i = 0; i < 1_000; i++) {
  const t0 = process.hrtime.bigint();
  queue.enqueue([{ folder: `/data/TV/Show ${(i * 97) % 10_000}/Season ${i % 10}/extra`, source: "bench", event: "Probe" }]);
  probes.push(Number(process.hrtime.bigint() - t0) / 1e6);
}
probes.sort((a, b) => a - b);
const parentT0 = process.hrtime.bigint();
queue.enqueue([{ folder: "/data/TV/Show 5", source: "bench", event: "Parent" }]);
const parentMs = Number(process.hrtime.bigint() - parentT0) / 1e6;

db.pragma("wal_checkpoint(TRUNCATE)");
console.log(`pending folders:     ${queue.countPending()}`);
console.log(`fill time:           ${fillMs.toFixed(0)} ms (${Math.round(FOLDERS / (fillMs / 1000))} folders/s in batches of 1,000)`);
console.log(
  `RSS before / after:  ${mb(before)} / ${mb(after)} (+${mb(after - before)})${global.gc ? "" : " (run with --expose-gc for steadier figures)"}`,
);
console.log(`database file:       ${mb(statSync(file).size)}`);
console.log(`one covered request at 100k pending: p50 ${probes[500]?.toFixed(3)} ms, p99 ${probes[990]?.toFixed(3)} ms`);
console.log(`a parent absorbing 10 children:     ${parentMs.toFixed(3)} ms`);
db.close();
rmSync(dir, { recursive: true, force: true });
