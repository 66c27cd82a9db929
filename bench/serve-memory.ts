/**
 * Memory of the real `scanarr serve` (a child process): RSS when idle and
 * after 100,000 distinct season folders were queued over HTTP (Sonarr
 * webhooks, 32 connections), plus the size of the SQLite queue on disk.
 *
 *   node --import tsx bench/serve-memory.ts [folders=100000]
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { BENCH_PASS, benchInstall } from "./lib/bench-config.js";
import { runCleanup } from "./lib/cleanup.js";
import { runLoad } from "./lib/load.js";
import { readRssBytes } from "./lib/proc.js";
import { logSize, startServeChild } from "./lib/serve-child.js";
import { sonarrDownloadBody } from "./lib/sonarr-payload.js";

const [FOLDERS = 100_000] = process.argv.slice(2).map(Number);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  await measure();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await runCleanup();
}

async function measure(): Promise<void> {
  const { installDir: dir } = await benchInstall();
  const serve = await startServeChild(dir);
  const database = path.join(dir, "data", "scanarr.db");
  await pause(2_000); // start-up garbage collected, library list fetched
  const idle = readRssBytes(serve.pid);

  // Ten seasons per series; every request is a season folder of its own.
  const load = await runLoad({
    url: `http://127.0.0.1:${serve.port}/${BENCH_PASS}`,
    connections: 32,
    amount: FOLDERS,
    bodyOf: (n) => sonarrDownloadBody({ series: Math.floor(n / 10), season: (n % 10) + 1, episode: 1 }),
  });
  const loaded = readRssBytes(serve.pid);
  await pause(5_000);
  const settled = readRssBytes(serve.pid);
  const res = await fetch(`http://127.0.0.1:${serve.port}/api/${BENCH_PASS}?cmd=queue_count`);
  const pending = ((await res.json()) as { queue_count: number }).queue_count;
  const dbBytes = statSync(database).size;
  const walBytes = existsSync(`${database}-wal`) ? statSync(`${database}-wal`).size : 0;
  const logBytes = logSize(serve);
  const code = await serve.stop();
  const afterStop = statSync(database).size;

  console.log(
    `queued:            ${pending} pending scans from ${load.acked} acknowledged webhooks (${JSON.stringify(load.statusCodes)}) in ${load.seconds.toFixed(1)} s`,
  );
  console.log(`serve RSS:         idle ${mb(idle)}; after the fill ${mb(loaded)}; 5 s later ${mb(settled)} (+${mb(settled - idle)})`);
  console.log(`queue on disk:     ${mb(dbBytes)} database + ${mb(walBytes)} WAL while running; ${mb(afterStop)} after a clean stop`);
  console.log(`log written:       ${mb(logBytes)} at info level`);
  console.log(`exit code on SIGTERM with ${pending} pending: ${code}`);
}
