/**
 * A full disk, then space back, then a stream of imports (issue 31 item 5; root only: it mounts).
 * A `serve` child whose data folder is a small tmpfs: the disk filled until a Sonarr import is
 * refused, freed, `/health` 200 awaited, then `imports` Sonarr imports, one at a time as fast as
 * they are answered, each naming a file never named before (ten season folders): the answers, the
 * WAL after every 50, the largest WAL seen (looked at every 5 ms), and `/health` 15 s later.
 *
 *   node --import tsx bench/full-disk-refill.ts [diskMiB] [imports]
 */
import { existsSync, statSync } from "node:fs";
import { mountSmallDisk } from "../test/helpers/small-disk.js";
import { BENCH_PASS, benchInstall } from "./lib/bench-config.js";
import { onCleanup, runCleanup } from "./lib/cleanup.js";
import { startServeChild } from "./lib/serve-child.js";
import { sonarrDownloadBody } from "./lib/sonarr-payload.js";

const diskMiB = Number(process.argv[2] ?? 8);
const imports = Number(process.argv[3] ?? 300);

try {
  await measure();
} finally {
  await runCleanup();
}

async function measure(): Promise<void> {
  const { installDir, paths } = await benchInstall({ SERVER_SCAN_DELAY: 0, SERVER_MAX_FILE_CHECKS: 0 });
  const disk = mountSmallDisk(paths.dataDir, diskMiB * 1024 * 1024);
  onCleanup(() => disk.unmount());
  const serve = await startServeChild(installDir);
  const origin = `http://127.0.0.1:${serve.port}`;
  const wal = () => (existsSync(`${paths.database}-wal`) ? statSync(`${paths.database}-wal`).size : 0);
  const kib = (n: number) => `${Math.round(n / 1024)} KiB`;
  let n = 0;
  const post = async (): Promise<number> => {
    const res = await fetch(`${origin}/${BENCH_PASS}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: sonarrDownloadBody({ series: n % 10, season: 1, episode: n++ }),
    });
    await res.arrayBuffer();
    return res.status;
  };
  const health = async () => {
    const res = await fetch(`${origin}/health`);
    await res.arrayBuffer();
    return res.status;
  };
  const until = async (what: string, ok: () => Promise<boolean>, ms: number) => {
    for (const end = Date.now() + ms; !(await ok()); ) {
      if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  disk.fill();
  await until("an import refused", async () => (await post()) === 507, 15_000);
  const freedAt = Date.now();
  disk.free();
  await until("/health 200 after freeing", async () => (await health()) === 200, 15_000);
  console.log(
    `${diskMiB} MiB tmpfs: /health 200 ${Date.now() - freedAt} ms after freeing; WAL ${kib(wal())}, free ${kib(disk.freeBytes())}`,
  );

  let largest = 0;
  const look = setInterval(() => (largest = Math.max(largest, wal())), 5);
  const counts: Record<string, number> = {};
  const startedAt = Date.now();
  for (let i = 1; i <= imports; i++) {
    const status = String(await post());
    counts[status] = (counts[status] ?? 0) + 1;
    if (i % 50 === 0) console.log(`after ${i}: WAL ${kib(wal())}, free ${kib(disk.freeBytes())}, answers ${JSON.stringify(counts)}`);
  }
  clearInterval(look);
  const seconds = (Date.now() - startedAt) / 1000;
  console.log(`${imports} imports in ${seconds.toFixed(1)} s: ${JSON.stringify(counts)}; largest WAL ${kib(Math.max(largest, wal()))}`);
  await new Promise((resolve) => setTimeout(resolve, 15_000));
  console.log(`15 s later: /health ${await health()}, WAL ${kib(wal())}, free ${kib(disk.freeBytes())}`);
  await serve.stop();
}
