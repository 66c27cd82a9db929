/**
 * 10,000 Sonarr webhooks, each naming a new episode file, over 100 season
 * folders through the real HTTP service (in process, real SQLite queue, the
 * loopback fake Plex), all inside the debounce: exactly 100 refresh calls
 * must reach Plex. Exits 1 otherwise.
 * The clock is a ManualClock, so the 60 s debounce passes without waiting.
 *
 *   node --import tsx bench/serve-coalescing.ts
 */
import { withPlexEntry } from "../src/config/plex-entry.js";
import { mkdirSync } from "node:fs";
import { resolveInstallPaths } from "../src/lib/install-paths.js";
import { ManualClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { startService } from "../src/serve/service.js";
import { startFakePlex } from "../test/fakes/plex.js";
import { BENCH_PASS, BENCH_SECTIONS, benchConfig } from "./lib/bench-config.js";
import { makeTempDir, onCleanup, runCleanup } from "./lib/cleanup.js";
import { runLoad } from "./lib/load.js";
import { episodeAt, plexFolderOf, sonarrDownloadBody, type FileLayout } from "./lib/sonarr-payload.js";

const REQUESTS = 10_000;
const SERIES = 20;
const SEASONS = 5; // 20 series x 5 seasons = 100 folders
const DELAY_SEC = 60;
const DELIVERY_LIMIT_MS = 30_000;

// Consecutive requests hit different series, so every folder's requests are spread over the whole run;
// each request names a new episode file (the folders repeat on purpose: that is what coalesces).
const layout: FileLayout = { folders: "open", series: SERIES, seasons: SEASONS };
const expected = new Set(Array.from({ length: SERIES * SEASONS }, (_, i) => plexFolderOf(episodeAt(layout, i))));

let failed = false;
try {
  failed = !(await measure());
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await runCleanup();
}
process.exitCode = failed ? 1 : 0;

async function measure(): Promise<boolean> {
  const plex = await startFakePlex({ sections: BENCH_SECTIONS });
  onCleanup(() => plex.close());
  const paths = resolveInstallPaths(makeTempDir());
  mkdirSync(paths.dataDir, { recursive: true });
  const clock = new ManualClock(Date.now());
  const config = benchConfig(plex.url, plex.token, { SERVER_SCAN_DELAY: DELAY_SEC });
  const service = await startService({ config: withPlexEntry(config), paths, logger: silentLogger(), clock, env: {} });
  onCleanup(() => service.stop());

  const load = await runLoad({
    url: `http://127.0.0.1:${service.port}/${BENCH_PASS}`,
    connections: 32,
    amount: REQUESTS,
    bodyOf: (n) => sonarrDownloadBody(episodeAt(layout, n)),
  });
  const refreshesBeforeDebounce = plex.refreshes.length;

  // Let the debounce pass, then keep time moving so retries or stragglers would show up too.
  const started = Date.now();
  clock.advance(DELAY_SEC * 1000 + 1);
  while (Date.now() - started < DELIVERY_LIMIT_MS && plex.refreshes.length < expected.size) await tick(clock);
  const deliveredMs = Date.now() - started;
  for (let i = 0; i < 20; i++) await tick(clock); // a further 20 s of service time: nothing more may arrive

  const folders = plex.refreshes.map((r) => r.path ?? "(whole section)");
  const distinct = new Set(folders);
  const unexpected = [...distinct].filter((f) => !expected.has(f));
  const ok =
    load.acked === REQUESTS && plex.refreshes.length === expected.size && distinct.size === expected.size && unexpected.length === 0;
  console.log(
    `webhooks posted:          ${REQUESTS} (Sonarr Download, a new file each) over ${expected.size} season folders, 32 connections`,
  );
  console.log(
    `answers:                  ${JSON.stringify(load.statusCodes)} in ${load.seconds.toFixed(1)} s (${Math.round(load.ackPerSec)} acknowledged/s, p99 ${load.p99} ms, in-process load generator)`,
  );
  console.log(`refreshes during posting: ${refreshesBeforeDebounce} (the ${DELAY_SEC} s debounce had not passed)`);
  console.log(
    `refresh calls to Plex:    ${plex.refreshes.length} (distinct folders ${distinct.size}, unexpected ${unexpected.length}) within ${deliveredMs} ms of the debounce ending`,
  );
  console.log(`library list calls:       ${plex.requests.filter((r) => !r.url.includes("/refresh")).length}`);
  console.log(
    ok
      ? `OK: exactly ${expected.size} refresh calls`
      : `FAIL: expected exactly ${expected.size} refresh calls for ${REQUESTS} acknowledged webhooks`,
  );
  return ok;
}

/** One second of service time, then a real pause so the HTTP calls to the fake Plex can complete. */
async function tick(clock: ManualClock): Promise<void> {
  clock.advance(1_000);
  await new Promise((resolve) => setTimeout(resolve, 20));
}
