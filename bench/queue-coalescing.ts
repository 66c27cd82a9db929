// 10,000 requests over 100 season folders must reach the target as exactly 100 scans.
// Run: node --import tsx bench/queue-coalescing.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Library, Target } from "../src/domain.js";
import { ManualClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { openDatabase } from "../src/queue/storage/database.js";
import { ScanQueue } from "../src/queue/scan-queue.js";
import { startDelivery } from "../src/delivery/scheduler.js";
import { deliveryTargetOf } from "../test/queue/helpers.js";

const REQUESTS = 10_000;
const SEASONS = 100;

const dir = mkdtempSync(path.join(tmpdir(), "scanarr-bench-"));
const db = openDatabase(path.join(dir, "scanarr.db"));
const clock = new ManualClock();
const queue = new ScanQueue({ db, clock, targets: ["plex"], delayMs: 180_000, logger: silentLogger() });
const library: Library = { id: "2", title: "TV", type: "show", locations: ["/data/TV"] };
const scans: string[] = [];
const target: Target = {
  scansPerLibrary: true,
  name: "plex",
  listLibraries: async () => [library],
  scan: async (folder) => void scans.push(folder),
};

const latencies: number[] = [];
const started = process.hrtime.bigint();
for (let i = 0; i < REQUESTS; i++) {
  const season = (i * 7919) % SEASONS; // a fixed shuffle, so folders interleave
  const folder = `/data/TV/Show ${season % 20}/Season ${Math.floor(season / 20) + 1}`;
  const t0 = process.hrtime.bigint();
  queue.enqueue([{ folder, source: "sonarr", event: "Download" }]); // one transaction per webhook, as over HTTP
  latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
  if (i % 100 === 0) clock.advance(1_000); // requests spread over ~100 s, inside the debounce
}
const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;

const delivery = startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger() });
for (let step = 0; step < 60 && queue.countPending() > 0; step++) {
  clock.advance(60_000);
  await new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < 200; i++) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
}
await delivery.stop();

latencies.sort((a, b) => a - b);
const pct = (p: number) => (latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0).toFixed(3);
console.log(`requests:            ${REQUESTS} over ${SEASONS} season folders`);
console.log(`enqueue rate:        ${Math.round(REQUESTS / (elapsedMs / 1000))} requests/s (one committed transaction each)`);
console.log(`enqueue latency:     p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms`);
console.log(`target.scan calls:   ${scans.length} (distinct folders: ${new Set(scans).size})`);
console.log(`still pending:       ${queue.countPending()}`);
db.close();
rmSync(dir, { recursive: true, force: true });
if (scans.length !== SEASONS) process.exitCode = 1;
