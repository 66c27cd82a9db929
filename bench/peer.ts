/**
 * scanarr beside its Go peer, Cloudbox/autoscan, in the same run on the same
 * load: `wrk -t1 -c64 -d10s` posting Sonarr Download webhooks that each name
 * a new episode file in a new series folder, to scanarr's `serve` (its own
 * route, `/<SERVER_PASS>`), to an autoscan binary (`/triggers/sonarr`, basic
 * auth) and to a bare node:http server (the reference of the ratios). Each
 * round starts every server afresh on a new temp data dir, in alternating
 * order, and loads it twice: cold (the first run after the start) and warm
 * (the second run on the same process, new folders again). Per server and
 * run: answered req/s, p50/p99, answers outside 2xx, CPU seconds per 10,000
 * requests, RSS idle before the load and after each run; then the medians.
 * After each server's runs it prints the warnings and errors the server
 * logged and, for autoscan, the scans its database holds beside the 2xx
 * answers wrk read.
 * scanarr runs built (`bin/scanarr.js`; dist/ is compiled first), as users
 * run it; `--source` runs src/ through tsx instead, as the other benches do
 * (tsx and the modules it compiles add to the RSS).
 *
 * autoscan is not built here: pass a binary built from its source
 * (`--autoscan`); `--autoscan-rollback` adds a second build as a fourth
 * server (the SQLite journal it ships with, for reference).
 *
 *   node --import tsx bench/peer.ts --autoscan <binary> [--autoscan-rollback <binary>] [--rounds 3] [--seconds 10] [--connections 64] [--source]
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { startFakePlex } from "../test/fakes/plex.js";
import { BENCH_SECTIONS } from "./lib/bench-config.js";
import { makeTempDir, onCleanup, runCleanup } from "./lib/cleanup.js";
import { type PeerRun, printPeerTable } from "./lib/peer-report.js";
import { type PeerServer, startAutoscanPeer, startBarePeer, startScanarrPeer } from "./lib/peer-servers.js";
import { writeNewSeriesWrkScript } from "./lib/peer-wrk.js";
import { readCpuSeconds, readRssBytes } from "./lib/proc.js";
import { buildDist, repoRoot } from "./lib/serve-child.js";
import { ensureWrk, runWrk } from "./lib/wrk.js";

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const autoscan = option("--autoscan");
const rollback = option("--autoscan-rollback");
const rounds = Number(option("--rounds") ?? 3);
const seconds = Number(option("--seconds") ?? 10);
const connections = Number(option("--connections") ?? 64);
const fromSource = args.includes("--source");
// Time to settle after the server listens, and between its cold and warm runs.
const SETTLE_MS = 2_000;

if (!autoscan || !existsSync(autoscan)) {
  console.log(
    `skipped: ${autoscan ? `no autoscan binary at ${autoscan}` : "no --autoscan <binary> given"}. This bench needs a Cloudbox/autoscan built from its source; see the Figures section of bench/README.md for how the one measured there was configured.`,
  );
  process.exit(0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => bytes / 1e6;

interface Contender {
  name: string;
  start(): Promise<PeerServer>;
}

async function measure(server: PeerServer, start: number, scriptDir: string): Promise<Omit<PeerRun, "rssIdle">> {
  const script = writeNewSeriesWrkScript(scriptDir, { start, headers: server.headers });
  const cpuBefore = readCpuSeconds(server.pid);
  const result = await runWrk(wrk, script, server.url, { threads: 1, connections, seconds });
  const cpu = readCpuSeconds(server.pid) - cpuBefore;
  return { ...result, cpuPer10k: (cpu * 10_000) / Math.max(1, result.requests), rssAfter: mb(readRssBytes(server.pid)) };
}

const wrk = ensureWrk();
if (!fromSource) buildDist();
try {
  const plex = await startFakePlex({ sections: BENCH_SECTIONS });
  onCleanup(() => plex.close());
  const contenders: Contender[] = [
    { name: "bare node:http", start: startBarePeer },
    { name: fromSource ? "scanarr (from source, tsx)" : "scanarr", start: () => startScanarrPeer(plex, !fromSource) },
    { name: "autoscan (WAL, synchronous=NORMAL)", start: () => startAutoscanPeer(autoscan, plex) },
  ];
  if (rollback) contenders.push({ name: "autoscan (rollback journal)", start: () => startAutoscanPeer(rollback, plex) });
  const runs = new Map<string, { cold: PeerRun[]; warm: PeerRun[] }>(contenders.map((c) => [c.name, { cold: [], warm: [] }]));
  const scriptDir = makeTempDir();
  const loadBefore = loadavg();
  const startedAt = new Date();
  for (let round = 0; round < rounds; round++) {
    console.log(`round ${round + 1}: load average (1 min) ${loadavg()[0]?.toFixed(2)}`);
    for (const contender of round % 2 === 0 ? contenders : [...contenders].reverse()) {
      const server = await contender.start();
      await sleep(SETTLE_MS);
      const rssIdle = mb(readRssBytes(server.pid));
      const cold = { rssIdle, ...(await measure(server, 0, scriptDir)) };
      await sleep(SETTLE_MS);
      const warm = { rssIdle, ...(await measure(server, 10_000_000, scriptDir)) };
      const problems = server.logProblems();
      await server.stop();
      const queued = server.queued?.();
      // wrk counts only the answers it read before its time was up; up to a connection's worth more may have been committed.
      const answered2xx = cold.requests - (cold.non2xx ?? 0) + warm.requests - (warm.non2xx ?? 0);
      runs.get(contender.name)?.cold.push(cold);
      runs.get(contender.name)?.warm.push(warm);
      for (const [label, run] of [["cold", cold] as const, ["warm", warm] as const]) {
        console.log(
          `round ${round + 1} ${contender.name.padEnd(36)} ${label} ${Math.round(run.perSec)}/s  p50 ${run.p50.toFixed(1)} ms  p99 ${run.p99.toFixed(1)} ms  max ${run.max.toFixed(0)} ms  non-2xx ${run.non2xx ?? 0}  socket errors ${run.errors - (run.non2xx ?? 0)}  CPU ${run.cpuPer10k.toFixed(2)} s/10k  RSS ${run.rssIdle.toFixed(1)} → ${run.rssAfter.toFixed(1)} MB`,
        );
      }
      if (queued !== undefined) console.log(`  ${queued} scans in its database; wrk read ${answered2xx} 2xx answers (each a new folder)`);
      for (const [message, count] of problems) console.log(`  logged ${count} × ${message}`);
    }
  }
  const loadAfter = loadavg();
  const commit = execFileSync("git", ["-C", repoRoot, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  console.log(
    `\nwrk -t1 -c${connections} -d${seconds}s, ${rounds} rounds, every server started afresh each round (order alternating); a Sonarr Download per request, each a new file in a new series folder; ${startedAt.toISOString()}; Node ${process.version}; scanarr ${commit}; autoscan ${autoscan}${rollback ? ` and ${rollback}` : ""}`,
  );
  console.log(
    `load average (1 min) ${loadBefore[0]?.toFixed(2)} before, ${loadAfter[0]?.toFixed(2)} after, on ${availableParallelism()} cores`,
  );
  printPeerTable(runs);
} finally {
  await runCleanup();
}
