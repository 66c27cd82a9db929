/**
 * scanarr beside its Go peer, Cloudbox/autoscan, in the same run on the same
 * load: `wrk -t1 -c64` posting Sonarr Download webhooks, each naming a new
 * episode file in a season folder of its own (`--folders open`: in one of
 * 200 season folders that stay open), built per request by the one wrk
 * script (`sonarrWrkScript`), to scanarr's `serve` (its own route,
 * `/<SERVER_PASS>`), to an autoscan binary (`/triggers/sonarr`, basic auth)
 * and to a bare node:http server (the reference of the ratios). Each round
 * starts every server afresh on a new temp data dir, in alternating order,
 * and measures it as the other serve benches do: cold, its first `--cold`
 * seconds after it listens, then warm, the same process for `--seconds`
 * more, going on with new files. Per server and phase: answered req/s,
 * p50/p99, answers outside 2xx, CPU µs per answered request, RSS at listen
 * (idle, before any request) and after the run; then the medians with the
 * ratios to the bare server. After each server's runs it prints the
 * warnings and errors the server logged and, for autoscan, the scans its
 * database holds beside the 2xx answers wrk read.
 * scanarr runs built (`bin/scanarr.js`; dist/ is compiled first), as users
 * run it; `--source` runs src/ through tsx instead, as the other benches do
 * (tsx and the modules it compiles add to the RSS).
 *
 * `--with "<NAME=value ...> <node flags ...>"` adds scanarr started with those
 * environment variables and node flags as one more server, to weigh them
 * against scanarr without them in the same run.
 *
 * autoscan is not built here: pass a binary built from its source
 * (`--autoscan`); `--autoscan-rollback` adds a second build as a fourth
 * server (the SQLite journal it ships with, for reference).
 *
 *   node --import tsx bench/peer.ts --autoscan <binary> [--autoscan-rollback <binary>] [--rounds 3] [--cold 8] [--seconds 8] [--connections 64] [--folders new|open] [--source] [--with "<NAME=value ...> <node flags ...>"]
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { startFakePlex } from "../test/fakes/plex.js";
import { BENCH_SECTIONS } from "./lib/bench-config.js";
import { makeTempDir, onCleanup, runCleanup } from "./lib/cleanup.js";
import { type PeerRun, printPeerTable } from "./lib/peer-report.js";
import { PEER_ROUTES, type PeerServer, startAutoscanPeer, startBarePeer, startScanarrPeer } from "./lib/peer-servers.js";
import { readCpuSeconds, readRssBytes } from "./lib/proc.js";
import { buildDist, repoRoot } from "./lib/serve-child.js";
import { describeLayout, type FileLayout, WRK_LAYOUTS } from "./lib/sonarr-payload.js";
import { ensureWrk, runWrk, writeWrkScript } from "./lib/wrk.js";

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const autoscan = option("--autoscan");
const rollback = option("--autoscan-rollback");
const rounds = Number(option("--rounds") ?? 3);
const coldSeconds = Number(option("--cold") ?? 8);
const seconds = Number(option("--seconds") ?? 8);
const connections = Number(option("--connections") ?? 64);
const fromSource = args.includes("--source");
const withWords = option("--with")?.split(" ").filter(Boolean);
// The loads of `ingest.ts --wrk`; new folders by default here.
const layout: FileLayout = option("--folders") === "open" ? WRK_LAYOUTS.open : WRK_LAYOUTS.new;

if (!autoscan || !existsSync(autoscan)) {
  console.log(
    `skipped: ${autoscan ? `no autoscan binary at ${autoscan}` : "no --autoscan <binary> given"}. This bench needs a Cloudbox/autoscan built from its source; see the Figures section of bench/README.md for how the one measured there was configured.`,
  );
  process.exit(0);
}

const mb = (bytes: number) => bytes / 1e6;
const BARE = "bare node:http";

interface Contender {
  name: string;
  /** Its webhook route and headers (`PEER_ROUTES`). */
  route: { path: string; headers?: Record<string, string> };
  start(): Promise<PeerServer>;
}

/** `runSeconds` of wrk from the `first`-th file of the load on, and what the server spent meanwhile. */
async function measure(server: PeerServer, script: string, runSeconds: number, first: number): Promise<Omit<PeerRun, "rssIdle">> {
  const cpuBefore = readCpuSeconds(server.pid);
  const result = await runWrk(wrk, script, server.url, { threads: 1, connections, seconds: runSeconds, first });
  const cpu = readCpuSeconds(server.pid) - cpuBefore;
  const answered = Math.max(1, result.requests - result.errors);
  return { ...result, cpuUsPerReq: (cpu * 1e6) / answered, rssAfter: mb(readRssBytes(server.pid)) };
}

/** `--with`'s words: NAME=value ones are environment variables, the rest node flags. */
function startOptionsOf(words: string[]): { env: Record<string, string>; nodeFlags: string[] } {
  const assignments = words.filter((word) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  return {
    env: Object.fromEntries(assignments.map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)])),
    nodeFlags: words.filter((word) => !assignments.includes(word)),
  };
}

const wrk = ensureWrk();
if (!fromSource) buildDist();
try {
  const plex = await startFakePlex({ sections: BENCH_SECTIONS });
  onCleanup(() => plex.close());
  const contenders: Contender[] = [
    { name: BARE, route: PEER_ROUTES.bare, start: startBarePeer },
    {
      name: fromSource ? "scanarr (from source, tsx)" : "scanarr",
      route: PEER_ROUTES.scanarr,
      start: () => startScanarrPeer(plex, !fromSource),
    },
    ...(withWords
      ? [
          {
            name: `scanarr + ${withWords.join(" ")}`,
            route: PEER_ROUTES.scanarr,
            start: () => startScanarrPeer(plex, !fromSource, startOptionsOf(withWords)),
          },
        ]
      : []),
    { name: "autoscan (WAL, synchronous=NORMAL)", route: PEER_ROUTES.autoscan, start: () => startAutoscanPeer(autoscan, plex) },
  ];
  if (rollback) {
    contenders.push({ name: "autoscan (rollback journal)", route: PEER_ROUTES.autoscan, start: () => startAutoscanPeer(rollback, plex) });
  }
  const runs = new Map<string, { cold: PeerRun[]; warm: PeerRun[] }>(contenders.map((c) => [c.name, { cold: [], warm: [] }]));
  const scripts = new Map(contenders.map((c) => [c.name, writeWrkScript(makeTempDir(), { layout, ...c.route })]));
  const loadBefore = loadavg();
  const startedAt = new Date();
  for (let round = 0; round < rounds; round++) {
    console.log(`round ${round + 1}: load average (1 min) ${loadavg()[0]?.toFixed(2)}`);
    for (const contender of round % 2 === 0 ? contenders : [...contenders].reverse()) {
      const script = scripts.get(contender.name) ?? "";
      const server = await contender.start();
      const rssIdle = mb(readRssBytes(server.pid));
      const cold = { rssIdle, ...(await measure(server, script, coldSeconds, 0)) };
      const warm = { rssIdle, ...(await measure(server, script, seconds, cold.next)) };
      const problems = server.logProblems();
      await server.stop();
      const queued = server.queued?.();
      // wrk counts only the answers it read before its time was up; up to a connection's worth more may have been committed.
      const answered2xx = cold.requests - cold.non2xx + warm.requests - warm.non2xx;
      runs.get(contender.name)?.cold.push(cold);
      runs.get(contender.name)?.warm.push(warm);
      for (const [label, run] of [["cold", cold] as const, ["warm", warm] as const]) {
        console.log(
          `round ${round + 1} ${contender.name.padEnd(36)} ${label} ${Math.round(run.perSec)}/s  p50 ${run.p50.toFixed(1)} ms  p99 ${run.p99.toFixed(1)} ms  max ${run.max.toFixed(0)} ms  non-2xx ${run.non2xx}  socket errors ${run.errors - run.non2xx}  CPU ${Math.round(run.cpuUsPerReq)} µs/req  RSS ${run.rssIdle.toFixed(1)} → ${run.rssAfter.toFixed(1)} MB`,
        );
      }
      if (queued !== undefined) console.log(`  ${queued} scans in its database; wrk read ${answered2xx} 2xx answers`);
      for (const [message, count] of problems) console.log(`  logged ${count} × ${message}`);
    }
  }
  const loadAfter = loadavg();
  const commit = execFileSync("git", ["-C", repoRoot, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  console.log(
    `\nwrk -t1 -c${connections}, ${rounds} rounds, every server started afresh each round (order alternating): cold = its first ${coldSeconds} s after it listens, warm = the next ${seconds} s; Sonarr Download JSON, ${describeLayout(layout)}; ${startedAt.toISOString()}; Node ${process.version}; scanarr ${commit}; autoscan ${autoscan}${rollback ? ` and ${rollback}` : ""}`,
  );
  console.log(
    `load average (1 min) ${loadBefore[0]?.toFixed(2)} before, ${loadAfter[0]?.toFixed(2)} after, on ${availableParallelism()} cores`,
  );
  printPeerTable(runs, BARE);
} finally {
  await runCleanup();
}
