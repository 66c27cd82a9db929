/**
 * A `serve` child whose data folder is a small tmpfs, fed Sonarr webhooks at a
 * steady pace while the disk fills and empties (root only: it mounts):
 *
 *   1. 3 s of load on a disk with room;
 *   2. the disk filled to the last byte, load for 5 s: what POSTs and /health answer;
 *   3. the filler removed: how long until a POST is accepted again and /health is ok,
 *      and how big the WAL grows and stays (does it eat the freed space?);
 *   4. the disk filled again and serve stopped, then started on the full disk: does it start?
 *   5. the filler removed: how long until it accepts again;
 *   6. every folder acknowledged with 202 must reach the fake Plex once.
 *
 *   node --import tsx bench/full-disk.ts [diskMiB] [ratePerSec]
 */
import { existsSync, readFileSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { mountSmallDisk, type SmallDisk } from "../test/helpers/small-disk.js";
import { BENCH_PASS, benchInstall } from "./lib/bench-config.js";
import { onCleanup, runCleanup } from "./lib/cleanup.js";
import { startServeChild, type ServeChild } from "./lib/serve-child.js";
import { plexFolderOf, sonarrDownloadBody } from "./lib/sonarr-payload.js";

const diskMiB = Number(process.argv[2] ?? 32);
const rate = Number(process.argv[3] ?? 200);

interface Sample {
  at: number;
  wal: number;
  free: number;
  health: number | "down";
}

try {
  await measure();
} finally {
  await runCleanup();
}

async function measure(): Promise<void> {
  const { plex, installDir, paths } = await benchInstall({ SERVER_SCAN_DELAY: 0, SERVER_MAX_FILE_CHECKS: 0 });
  const disk: SmallDisk = mountSmallDisk(paths.dataDir, diskMiB * 1024 * 1024);
  onCleanup(() => disk.unmount());
  const walFile = `${paths.database}-wal`;
  const walSize = () => (existsSync(walFile) ? statSync(walFile).size : 0);
  let serve: ServeChild | undefined = await startServeChild(installDir);
  let base = `http://127.0.0.1:${serve.port}`;

  const acked = new Set<string>();
  const statuses: Array<{ at: number; status: number | "error" }> = [];
  let next = 0;
  let loadOn = true;
  const post = async (): Promise<void> => {
    const episode = { series: next++, season: 1, episode: 1 };
    try {
      const res = await fetch(`${base}/${BENCH_PASS}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: sonarrDownloadBody(episode),
      });
      await res.arrayBuffer();
      statuses.push({ at: Date.now(), status: res.status });
      if (res.status === 202) acked.add(plexFolderOf(episode));
    } catch {
      statuses.push({ at: Date.now(), status: "error" });
    }
  };
  const load = (async () => {
    while (loadOn) {
      const started = Date.now();
      await Promise.all(Array.from({ length: 4 }, post));
      await sleep(Math.max(0, (4 * 1000) / rate - (Date.now() - started)));
    }
  })();

  const samples: Sample[] = [];
  const health = async (): Promise<number | "down"> => {
    try {
      const res = await fetch(`${base}/health`);
      await res.arrayBuffer();
      return res.status;
    } catch {
      return "down";
    }
  };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      samples.push({ at: Date.now(), wal: walSize(), free: disk.freeBytes(), health: await health() });
      await sleep(100);
    }
  })();
  const between = (from: number, to: number) => samples.filter((s) => s.at >= from && s.at < to);
  const count = (from: number, to: number) => {
    const counts: Record<string, number> = {};
    for (const s of statuses) if (s.at >= from && s.at < to) counts[String(s.status)] = (counts[String(s.status)] ?? 0) + 1;
    return counts;
  };
  const firstAfter = (from: number, ok: (s: { status: number | "error" }) => boolean) => statuses.find((s) => s.at >= from && ok(s))?.at;
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MiB`;
  const rows: string[][] = [];
  const report = (what: string, value: string) => rows.push([what, value]);

  await sleep(3_000);
  report("disk", `${diskMiB} MiB tmpfs, ${rate} webhooks/s`);
  report("WAL before the disk filled", mib(walSize()));

  const filledAt = Date.now();
  disk.fill();
  await sleep(5_000);
  report("answers while full (5 s)", JSON.stringify(count(filledAt + 500, Date.now())));
  report("/health while full", JSON.stringify([...new Set(between(filledAt + 1_000, Date.now()).map((s) => s.health))]));

  const freedAt = Date.now();
  disk.free();
  const freeAfterFreeing = disk.freeBytes();
  await sleep(10_000);
  const accepted = firstAfter(freedAt, (s) => s.status === 202);
  const healthy = samples.find((s) => s.at >= freedAt && s.health === 200)?.at;
  const after = between(freedAt, Date.now());
  report("first 202 after space returned", accepted === undefined ? "none within 10 s" : `${accepted - freedAt} ms`);
  report("/health 200 after space returned", healthy === undefined ? "not within 10 s" : `${healthy - freedAt} ms`);
  report("WAL max in the 10 s after", mib(Math.max(0, ...after.map((s) => s.wal))));
  report("WAL 10 s after", mib(walSize()));
  report("free space right after freeing / 10 s later", `${mib(freeAfterFreeing)} / ${mib(disk.freeBytes())}`);
  report("answers in the 10 s after", JSON.stringify(count(freedAt, Date.now())));

  let logs = 0;
  // Two restarts on a full disk: stopped while it was full (its WAL stays), and stopped with room
  // (the WAL and -shm files are removed) before the disk filled.
  for (const stopWhileFull of [true, false]) {
    const label = stopWhileFull ? "stopped while full" : "stopped with room, filled while down";
    if (stopWhileFull) {
      disk.fill();
      await sleep(2_000);
    }
    const stopCode = await (serve as ServeChild).stop();
    report(`${label}: stop exit code`, String(stopCode));
    // Whatever the stop freed is taken again, as another writer on the disk would.
    disk.fill();
    // The new child's port is read from its log: the old log goes aside first.
    renameSync(path.join(installDir, "serve.log"), path.join(installDir, `serve-${++logs}.log`));
    const restartAt = Date.now();
    try {
      serve = await startServeChild(installDir);
      base = `http://127.0.0.1:${serve.port}`;
      report(`${label}: start on the full disk`, `listening after ${Date.now() - restartAt} ms`);
      await sleep(2_000);
      report(`${label}: answers in 2 s`, JSON.stringify(count(restartAt, Date.now())));
      report(`${label}: /health`, String(await health()));
    } catch {
      serve = undefined;
      const log = readFileSync(path.join(installDir, "serve.log"), "utf8").trim().split("\n").slice(-2).join(" | ");
      report(`${label}: start on the full disk`, `FAILED: ${log.slice(0, 300)}`);
    }
    const freedAgainAt = Date.now();
    disk.free();
    if (serve === undefined) {
      renameSync(path.join(installDir, "serve.log"), path.join(installDir, `serve-${++logs}.log`));
      serve = await startServeChild(installDir);
      base = `http://127.0.0.1:${serve.port}`;
      report(`${label}: after space returned`, "an operator had to start it again");
    }
    await sleep(5_000);
    const acceptedAgain = firstAfter(freedAgainAt, (s) => s.status === 202);
    report(
      `${label}: first 202 after space returned`,
      acceptedAgain === undefined ? "none within 5 s" : `${acceptedAgain - freedAgainAt} ms`,
    );
  }
  loadOn = false;
  await load;
  const settleBy = Date.now() + 20_000;
  const delivered = () => new Set(plex.refreshes.map((r) => r.path));
  while ([...acked].some((f) => !delivered().has(f)) && Date.now() < settleBy) await sleep(200);
  sampling = false;
  await sampler;
  const seen = delivered();
  const missing = [...acked].filter((f) => !seen.has(f));
  const calls = new Map<string, number>();
  for (const r of plex.refreshes) calls.set(r.path ?? "", (calls.get(r.path ?? "") ?? 0) + 1);
  report("202s acknowledged / delivered / missing", `${acked.size} / ${acked.size - missing.length} / ${missing.length}`);
  report("folders delivered more than once", String([...calls.values()].filter((n) => n > 1).length));
  report("largest WAL seen in the whole run", mib(Math.max(0, ...samples.map((s) => s.wal))));
  report("WAL at the end", mib(walSize()));
  await serve?.stop();
  const width = Math.max(...rows.map(([w]) => (w as string).length));
  for (const [what, value] of rows) console.log(`${(what as string).padEnd(width)}  ${value}`);
  if (missing.length > 0) process.exitCode = 1;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
