import { ManualClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { openDatabase } from "../src/queue/storage/database.js";
import { ScanQueue } from "../src/queue/scan-queue.js";
import { BENCH_PASS, benchInstall } from "./lib/bench-config.js";
import { onCleanup, runCleanup } from "./lib/cleanup.js";
import { runLoad } from "./lib/load.js";
import { startServeChild } from "./lib/serve-child.js";
import { episodeAt, sonarrDownloadBody, type FileLayout } from "./lib/sonarr-payload.js";

const pending = Number(process.argv[2] ?? 100_000);
const limitSec = Number(process.argv[3] ?? 180);
const loadSec = Number(process.argv[4] ?? 10);
const cpuProfDir = process.argv.includes("--cpu-prof") ? process.argv[process.argv.indexOf("--cpu-prof") + 1] : undefined;
// SERVER_DELIVERY_CONCURRENCY for the run (the default otherwise).
const concurrency = process.argv.includes("--concurrency") ? Number(process.argv[process.argv.indexOf("--concurrency") + 1]) : undefined;
// The webhook load's first seconds (at most half of it), reported apart from the rest.
const COLD_SEC = 5;

try {
  await measure();
} finally {
  await runCleanup();
}

async function measure(): Promise<void> {
  const { plex, installDir, paths } = await benchInstall({
    SERVER_SCAN_DELAY: 0,
    ...(concurrency ? { SERVER_DELIVERY_CONCURRENCY: concurrency } : {}),
  });
  fillQueue(paths.database, pending);
  const serve = await startServeChild(installDir, { logLevel: "warn", ...(cpuProfDir ? { cpuProfDir } : {}) });
  // The history keeps only the latest finished scans, so count what reached Plex.
  const doneCount = () => plex.refreshes.length;

  const started = Date.now();
  const samples: Array<{ at: number; done: number }> = [];
  const sampler = setInterval(() => samples.push({ at: Date.now() - started, done: doneCount() }), 1_000);
  onCleanup(() => clearInterval(sampler));
  // Webhooks while the backlog drains, each a new file in a season folder of its own: cold, the
  // first seconds after serve listens, then warm, the rest of the load on the same process.
  const layout: FileLayout = { folders: "new", seasons: 1 };
  const url = `http://127.0.0.1:${serve.port}/${BENCH_PASS}`;
  const coldSec = Math.min(COLD_SEC, loadSec / 2);
  const bodyOf = (first: number) => (n: number) => sonarrDownloadBody(episodeAt(layout, 900_000 + first + n));
  const cold = await runLoad({ url, connections: 16, durationSec: coldSec, bodyOf: bodyOf(0) });
  const warm = await runLoad({ url, connections: 16, durationSec: loadSec - coldSec, bodyOf: bodyOf(cold.sent) });
  while (doneCount() < pending && Date.now() - started < limitSec * 1_000) await new Promise((r) => setTimeout(r, 250));
  clearInterval(sampler);
  const seconds = (Date.now() - started) / 1_000;
  const done = doneCount();
  const duplicates = plex.refreshes.length - new Set(plex.refreshes.map((r) => r.path)).size;
  await serve.stop();

  console.log(`pending at start: ${pending.toLocaleString("en-US")}; delivered ${done.toLocaleString("en-US")} in ${seconds.toFixed(1)} s`);
  console.log(`overall: ${Math.round(done / seconds).toLocaleString("en-US")} deliveries/s; duplicate refreshes: ${duplicates}`);
  const rate = (from: number, to: number) => {
    const a = samples.find((s) => s.at >= from * 1_000);
    const b = [...samples].reverse().find((s) => s.at <= to * 1_000);
    return a && b && b.at > a.at ? Math.round(((b.done - a.done) * 1_000) / (b.at - a.at)) : NaN;
  };
  console.log(`rate during the webhook load (0-${loadSec} s): ${rate(0, loadSec)}/s; after it: ${rate(loadSec, seconds)}/s`);
  for (const [phase, load] of [
    [`cold (0-${coldSec} s)`, cold],
    [`warm (${coldSec}-${loadSec} s)`, warm],
  ] as const) {
    console.log(
      `webhooks during the drain, ${phase}: ${Math.round(load.ackPerSec)}/s acknowledged, p50 ${load.p50} ms, p99 ${load.p99} ms, max ${load.max} ms, non-2xx ${load.non2xx}, errors ${load.errors + load.timeouts}`,
    );
  }
}

/** Writes `count` due scans the way an outage leaves them: each already past its debounce. */
function fillQueue(file: string, count: number): void {
  const db = openDatabase(file);
  const clock = new ManualClock(Date.now() - 60_000);
  const queue = new ScanQueue({ db, clock, targets: ["plex"], delayMs: 0, logger: silentLogger() });
  const chunk = 5_000;
  for (let start = 0; start < count; start += chunk) {
    const requests = [];
    for (let i = start; i < Math.min(count, start + chunk); i++) {
      requests.push({ folder: `/data/TV/Show ${i}/Season 1`, source: "sonarr", event: "Download" });
    }
    queue.enqueue(requests);
  }
  db.close();
}
