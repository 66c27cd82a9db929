// What the counts per shown state cost (src/queue/views/scan-counts.ts) with N pending scans, in each
// situation that walks an index: all debouncing, all due (queued: counted by subtraction), all held
// by a target that is down, all retrying; against reading the trigger-kept scan_count table alone
// (the old count, O(1)) in the same run. Run: node --import tsx bench/queue-counts.ts [pending]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ManualClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { openDatabase } from "../src/queue/storage/database.js";
import { ScanQueue } from "../src/queue/scan-queue.js";
import { QueueReads } from "../src/queue/views/queue-reads.js";

const PENDING = Number(process.argv[2] ?? 30_000);
const ROUNDS = 41;

const dir = mkdtempSync(path.join(tmpdir(), "scanarr-bench-"));
const db = openDatabase(path.join(dir, "scanarr.db"));
const clock = new ManualClock();
const queue = new ScanQueue({ db, clock, targets: ["plex"], delayMs: 60_000, logger: silentLogger() });
const reads = new QueueReads(db, clock);
for (let i = 0; i < PENDING; i += 1_000) {
  queue.enqueue(Array.from({ length: 1_000 }, (_, j) => ({ folder: `/data/TV/Show ${i + j}`, source: "bench", event: "Fill" })));
}
const stored = db.prepare("SELECT state, n FROM scan_count WHERE n > 0");

function median(fn: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(ROUNDS / 2)] as number;
}

function report(label: string): void {
  const reference = median(() => stored.all());
  const counts = median(() => reads.counts());
  const shown = Object.entries(reads.counts())
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${s} ${n}`)
    .join(", ");
  console.log(`${label.padEnd(24)} counts ${counts.toFixed(3)} ms  (scan_count alone ${reference.toFixed(3)} ms; ${shown})`);
}

console.log(`${PENDING} pending scans, median of ${ROUNDS} runs`);
report("all debouncing");
clock.advance(60_000);
report("all due (queued)");
queue.recordHolds([{ kind: "target-down", subject: "plex", detail: "bench" }]);
report("all held (plex down)");
queue.recordHolds([]);
// Every delivery tried once and put back for later.
for (;;) {
  const jobs = queue.claimDue("plex", 1_000);
  if (jobs.length === 0) break;
  queue.batch(() => {
    for (const job of jobs) queue.recordRetry(job, clock.now() + 3_600_000, "bench");
  });
}
report("all retrying");
queue.recordHolds([{ kind: "anchor", subject: "/mnt/x", detail: "bench" }]);
report("all held (anchor)");
db.close();
rmSync(dir, { recursive: true, force: true });
