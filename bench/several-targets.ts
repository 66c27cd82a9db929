/**
 * 10,000 due scans delivered by the real service (in process, real clock) to
 * three loopback fakes at once: Plex, Jellyfin and Emby, each in its own path
 * form, with Jellyfin down for the first `downSec` seconds. Reports the calls
 * each server received per folder (must be exactly one) and the wall time.
 *
 *   node --import tsx bench/several-targets.ts [folders] [limitSec] [downSec]
 */
import { withPlexEntry } from "../src/config/plex-entry.js";
import { mkdirSync } from "node:fs";
import { systemClock } from "../src/lib/clock.js";
import { resolveInstallPaths } from "../src/lib/install-paths.js";
import { silentLogger } from "../src/lib/logger.js";
import { openDatabase } from "../src/queue/storage/database.js";
import { ScanQueue } from "../src/queue/scan-queue.js";
import { startService } from "../src/serve/service.js";
import { startOtherServers } from "../test/fakes/other-servers.js";
import { startFakePlex } from "../test/fakes/plex.js";
import { BENCH_SECTIONS, benchConfig } from "./lib/bench-config.js";
import { makeTempDir, onCleanup, runCleanup } from "./lib/cleanup.js";

const folders = Number(process.argv[2] ?? 10_000);
const limitSec = Number(process.argv[3] ?? 300);
const downSec = Number(process.argv[4] ?? 20);

try {
  await measure();
} finally {
  await runCleanup();
}

async function measure(): Promise<void> {
  const plex = await startFakePlex({ sections: BENCH_SECTIONS });
  const { jellyfin, emby, targets: TARGETS, close } = await startOtherServers();
  onCleanup(() => plex.close());
  onCleanup(close);
  const paths = resolveInstallPaths(makeTempDir());
  mkdirSync(paths.dataDir, { recursive: true });
  const config = { ...benchConfig(plex.url, plex.token, { SERVER_SCAN_DELAY: 0, SERVER_MAX_FILE_CHECKS: 0 }), TARGETS };
  const wanted = Array.from({ length: folders }, (_, i) => `/data/TV/Show ${i}/Season 1`);
  const db = openDatabase(paths.database);
  const queue = new ScanQueue({ db, clock: systemClock, targets: ["plex", "jellyfin", "emby"], delayMs: 0, logger: silentLogger() });
  for (let i = 0; i < wanted.length; i += 5_000)
    queue.enqueue(wanted.slice(i, i + 5_000).map((folder) => ({ folder, source: "sonarr", event: "Download" })));
  db.close();

  const started = Date.now();
  const service = await startService({ config: withPlexEntry(config), paths, logger: silentLogger(), clock: systemClock, env: {} });
  onCleanup(() => service.stop());
  await jellyfin.setAvailability("down");
  const recovery = setTimeout(() => void jellyfin.setAvailability("up"), downSec * 1_000);
  onCleanup(() => clearTimeout(recovery));
  const count = (server: { mediaUpdates: Array<Array<{ path: string }>> }) => server.mediaUpdates.reduce((n, call) => n + call.length, 0);
  const done = () => plex.refreshes.length >= folders && count(jellyfin) >= folders && count(emby) >= folders;
  while (!done() && Date.now() - started < limitSec * 1_000) await new Promise((r) => setTimeout(r, 200));
  clearTimeout(recovery);
  const seconds = (Date.now() - started) / 1_000;
  const distinct = (paths: string[]) => new Set(paths).size;
  const jf = jellyfin.mediaUpdates.flatMap((c) => c.map((u) => u.path));
  const em = emby.mediaUpdates.flatMap((c) => c.map((u) => u.path));
  console.log(`${folders.toLocaleString("en-US")} folders in ${seconds.toFixed(1)} s (${done() ? "all delivered" : "NOT all delivered"})`);
  console.log(`plex: ${plex.refreshes.length} calls, ${distinct(plex.refreshes.map((r) => r.path ?? ""))} distinct folders`);
  console.log(
    `jellyfin (down for the first ${downSec} s): ${jf.length} calls, ${distinct(jf)} distinct folders; requests seen ${jellyfin.requests.length}`,
  );
  console.log(`emby: ${em.length} calls, ${distinct(em)} distinct folders`);
  if (!done() || plex.refreshes.length !== folders || jf.length !== folders || em.length !== folders) process.exitCode = 1;
}
