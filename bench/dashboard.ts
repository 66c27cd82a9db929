import { ManualClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { openDatabase } from "../src/queue/storage/database.js";
import { QueueStats } from "../src/queue/views/history-stats.js";
import { ScanQueue } from "../src/queue/scan-queue.js";
import { BENCH_PASS, benchInstall } from "./lib/bench-config.js";
import { onCleanup, runCleanup } from "./lib/cleanup.js";
import { startServeChild } from "./lib/serve-child.js";

const history = Number(process.argv[2] ?? 100_000);
const pending = Number(process.argv[3] ?? 10_000);
const rounds = Number(process.argv[4] ?? 30);

try {
  await measure();
} finally {
  await runCleanup();
}

async function measure(): Promise<void> {
  const { installDir, paths } = await benchInstall();
  const filled = Date.now();
  const cursor = fillQueue(paths.database, history, pending);
  console.log(
    `filled ${history.toLocaleString("en-US")} finished and ${pending.toLocaleString("en-US")} pending scans in ${((Date.now() - filled) / 1000).toFixed(1)} s`,
  );
  measureStats(paths.database);
  const serve = await startServeChild(installDir, { logLevel: "warn" });
  onCleanup(async () => {
    await serve.stop();
  });
  const base = `http://127.0.0.1:${serve.port}/${BENCH_PASS}/`;

  const first = await timed(base);
  console.log(`first load after start: ${first.ms.toFixed(1)} ms, ${kb(first.bytes)}`);
  const views: Array<[string, string]> = [
    ["dashboard", base],
    ["live part (what an open page reloads on a change)", `${base}fragment`],
    ["history, a page 50,000 rows down", `${base}?after=${cursor}`],
    ["history filtered by text", `${base}?state=done&q=${encodeURIComponent("Show 4242")}`],
    ["JSON history API, one page", `${base}api/history?limit=50`],
  ];
  console.log(`| view | median ms | p95 ms | max ms | bytes |`);
  console.log(`| --- | --: | --: | --: | --: |`);
  for (const [name, url] of views) {
    const runs: Array<{ ms: number; bytes: number }> = [];
    for (let i = 0; i < rounds; i++) runs.push(await timed(url));
    const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
    const at = (q: number) => (ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] as number).toFixed(1);
    console.log(`| ${name} | ${at(0.5)} | ${at(0.95)} | ${at(1)} | ${kb(runs[0]?.bytes ?? 0)} |`);
  }
}

/** The activity queries alone, on their own connection, over a 7-day window that holds the whole history. */
function measureStats(file: string): void {
  const db = openDatabase(file);
  const stats = new QueueStats(db);
  const now = Date.now();
  const since = now - 7 * 24 * 3_600_000;
  const queries: Array<[string, () => unknown]> = [
    ["finished by state", () => stats.finishedByState(since, now)],
    ["deliveries per hour and target", () => stats.deliveriesPerHour(["plex"], since, now)],
    ["time to confirmation (median, p95)", () => stats.confirmLatency(since, now)],
  ];
  console.log(`| activity query (7 days, ${history.toLocaleString("en-US")} rows in the window) | median ms | max ms |`);
  console.log(`| --- | --: | --: |`);
  for (const [name, run] of queries) {
    const ms: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const started = performance.now();
      run();
      ms.push(performance.now() - started);
    }
    ms.sort((a, b) => a - b);
    console.log(`| ${name} | ${(ms[Math.floor(ms.length / 2)] as number).toFixed(1)} | ${(ms[ms.length - 1] as number).toFixed(1)} |`);
  }
  db.close();
}

async function timed(url: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { accept: "text/html" } });
  const body = await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return { ms: performance.now() - started, bytes: body.byteLength };
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/**
 * Finished scans (delivered and recorded done through the queue, one a
 * second apart) and pending ones due in a day. Returns the history cursor of
 * the scan halfway down the history.
 */
function fillQueue(file: string, finished: number, waiting: number): string {
  const db = openDatabase(file);
  const clock = new ManualClock(Date.now() - finished * 1_000 - 60_000);
  const queue = new ScanQueue({ db, clock, targets: ["plex"], delayMs: 0, logger: silentLogger(), history: { done: finished + 1 } });
  const libraries = [{ id: "2", title: "TV Shows" }];
  const chunk = 1_000;
  let middle = "";
  for (let start = 0; start < finished; start += chunk) {
    const count = Math.min(chunk, finished - start);
    queue.enqueue(
      Array.from({ length: count }, (_, i) => ({ folder: `/data/TV/Show ${start + i}/Season 1`, source: "sonarr", event: "Download" })),
    );
    queue.batch(() => {
      for (const job of queue.claimDue("plex", count)) {
        clock.advance(1_000);
        // Delivered and confirmed, as Plex does: the time to confirmation is what the page's latency reads.
        queue.recordDelivered(job, libraries, true);
        const confirmedAfterMs = 5_000 + ((job.scanId * 7_919) % 120_000);
        queue.recordConfirmed([
          {
            deliveryId: job.deliveryId,
            scanId: job.scanId,
            state: "done",
            detail: "confirmed",
            error: null,
            progress: { confirmedAfterMs },
          },
        ]);
        if (start + count / 2 >= finished / 2 && middle === "") middle = `${clock.now()}.${job.scanId}`;
      }
    });
  }
  const later = new ScanQueue({ db, clock, targets: ["plex"], delayMs: 24 * 3_600_000, logger: silentLogger() });
  for (let start = 0; start < waiting; start += chunk) {
    const count = Math.min(chunk, waiting - start);
    later.enqueue(
      Array.from({ length: count }, (_, i) => ({ folder: `/data/Movies/Film ${start + i} (2000)`, source: "radarr", event: "Download" })),
    );
  }
  db.close();
  return middle;
}
