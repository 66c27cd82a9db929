/**
 * Ingest rate of the real `scanarr serve` (a child process, durable SQLite
 * queue, info logging) under autocannon: 64 keep-alive connections POSTing
 * Sonarr Download webhooks, each naming a file no earlier request named.
 * Target on a 2-core machine: >= 5,000 acknowledged (202) webhooks/s with
 * p99 < 50 ms.
 *
 * Each case starts a fresh serve on a new database and measures it twice:
 * cold, the first `--cold` seconds (8) after it listens, then warm, the same
 * process for `seconds` more with further new files; `--rounds N` (3) repeats
 * it and prints medians. The last cases add what a full install runs:
 * `/metrics` on (issue 14: within 5 % of off), two anchors checked (issue
 * 10), Jellyfin and Emby as two more targets (issue 12), and
 * regular-expression rewrites with a source's filter and priority (issue
 * 24). `--cases 1,4` runs some of them.
 *
 *   node --import tsx bench/ingest.ts [seconds=12] [connections=64] [--cold 8] [--rounds 3] [--cases 1,2,...] [--cpu-prof <dir>]
 *
 * `--wrk` loads serve and a bare node:http server (reads the body, answers
 * 202) in the same run with `wrk -t1 -c64`, each fresh every round, cold
 * (the first 8 s) and warm (8 s more), alternating, and prints the ratios
 * (bench/lib/ingest-wrk.ts). The wrk script builds each body as it sends it:
 * a new episode file per request in 200 season folders that stay open, or
 * with `--folders new` a new season folder per request too. `--busy` adds a
 * one-core busy loop beside both, `--rounds N` (3), `--base <checkout>` runs
 * that checkout's serve as a third server (the code before a change;
 * `--base-flags "<node flags>"` for it alone), `--trace-gc` logs serve's GC:
 *
 *   node --import tsx bench/ingest.ts --wrk [seconds=8] [connections=64] [--cold 8] [--folders open|new] [--rounds 3] [--busy] [--base <dir> [--base-flags "..."]] [--cpu-prof <dir>] [--trace-gc]
 */
import { writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import type { Config } from "../src/config/types.js";
import { startOtherServers } from "../test/fakes/other-servers.js";
import { startFakePlex } from "../test/fakes/plex.js";
import { BENCH_PASS, BENCH_SECTIONS, benchConfig, writeBenchConfig } from "./lib/bench-config.js";
import { makeTempDir, onCleanup, runCleanup } from "./lib/cleanup.js";
import { runWrkMode } from "./lib/ingest-wrk.js";
import { formatRow, runLoad, SUMMARY_HEADER, type CaseRun, type LoadSummary } from "./lib/load.js";
import { readCpuSeconds, readRssBytes } from "./lib/proc.js";
import { logSize, startServeChild, type ServeChild } from "./lib/serve-child.js";
import { describeLayout, episodeAt, sonarrDownloadBody, type FileLayout, WRK_LAYOUTS } from "./lib/sonarr-payload.js";

const args = process.argv.slice(2);
const profIndex = args.indexOf("--cpu-prof");
const cpuProfDir = profIndex >= 0 ? path.resolve(args.splice(profIndex, 2)[1] ?? "cpu-profiles") : undefined;
const flag = (name: string) => {
  const at = args.indexOf(name);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
};
const optionValue = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const wrkMode = flag("--wrk");
const rounds = Number(optionValue("--rounds") ?? 3);
const coldSeconds = Number(optionValue("--cold") ?? 8);
if (wrkMode) {
  const busy = flag("--busy");
  const traceGc = flag("--trace-gc");
  const baseRoot = optionValue("--base");
  const baseFlags = optionValue("--base-flags")?.split(" ").filter(Boolean);
  const layout: FileLayout = optionValue("--folders") === "new" ? WRK_LAYOUTS.new : WRK_LAYOUTS.open;
  const [wrkSeconds = 8, wrkConnections = 64] = args.map(Number);
  try {
    await runWrkMode({
      seconds: wrkSeconds,
      coldSeconds,
      connections: wrkConnections,
      rounds,
      layout,
      busy,
      baseRoot: baseRoot && path.resolve(baseRoot),
      baseFlags,
      cpuProfDir,
      nodeFlags: traceGc ? ["--trace-gc"] : [],
    });
  } finally {
    await runCleanup();
  }
  process.exit(0);
}
const casesIndex = args.indexOf("--cases");
const only = casesIndex >= 0 ? (args.splice(casesIndex, 2)[1] ?? "").split(",").map(Number) : undefined;
const [seconds = 12, connections = 64] = args.map(Number);
const COVERING_SERIES = 4;

interface Scenario {
  label: string;
  logLevel: "info" | "warn";
  /** Folders queued before the load (manual requests). */
  prequeue: string[];
  /** Where the files go: every request names a new one. */
  layout: FileLayout;
  /** Config on top of the bench's (one Plex target, metrics off, no anchors). */
  config?: (dir: string) => Partial<Config>;
}

// Every request a new file in a season folder of its own: each one inserts a scan and its delivery.
const manyFolders: FileLayout = { folders: "new", seasons: 10 };
// A new file each time in eight season folders inside four pending series folders: each request is covered.
const fewFolders: FileLayout = { folders: "open", series: COVERING_SERIES, seasons: 2 };
const seriesFolders = Array.from({ length: COVERING_SERIES }, (_, s) => `/tv/Show ${s}/`);

const scenarios: Scenario[] = [
  { label: "many folders (new scan each), log info", logLevel: "info", prequeue: [], layout: manyFolders },
  { label: "few folders (covered), log info", logLevel: "info", prequeue: seriesFolders, layout: fewFolders },
  { label: "many folders (new scan each), log warn", logLevel: "warn", prequeue: [], layout: manyFolders },
];

const plex = await startFakePlex({ sections: BENCH_SECTIONS });
onCleanup(() => plex.close());
const others = await startOtherServers();
onCleanup(() => others.close());
const full: Scenario[] = [
  {
    label: "many folders, log info, metrics on",
    logLevel: "info",
    prequeue: [],
    layout: manyFolders,
    config: () => ({ METRICS: { ENABLED: true } }),
  },
  { label: "many folders, log info, 2 anchors", logLevel: "info", prequeue: [], layout: manyFolders, config: anchorsIn },
  {
    label: "many folders, log info, 3 targets",
    logLevel: "info",
    prequeue: [],
    layout: manyFolders,
    config: () => ({ TARGETS: others.targets }),
  },
  {
    // Issue 24: three global rewrites none of which matches, then Sonarr's own that does, a filter and a priority.
    label: "many folders, log info, rewrites",
    logLevel: "info",
    prequeue: [],
    layout: manyFolders,
    config: () => ({
      SERVER_PATH_REWRITES: [
        { FROM: "^/downloads/complete/(.*)", TO: "/tv/$1" },
        { FROM: "(?i)^/TV4K/(?P<rest>.*)", TO: "/tv/${rest}" },
        { FROM: "^/srv/media/([^/]+)/", TO: "/tv/$1/" },
      ],
      SOURCES: {
        sonarr: {
          REWRITES: [{ FROM: "^/tv/(?P<show>[^/]+)/Season (\\d+)/", TO: "/tv/${show}/Season $2/" }],
          EXCLUDE: ["/Extras/"],
          PRIORITY: -2,
        },
      },
    }),
  },
];
const chosen = [...scenarios, ...full].filter((_, i) => only === undefined || only.includes(i + 1));
const runs = chosen.map(() => ({ cold: [] as CaseRun[], warm: [] as CaseRun[] }));
const loadBefore = loadavg()[0] ?? 0;
try {
  for (let round = 0; round < rounds; round++) {
    for (const [i, scenario] of chosen.entries()) {
      const result = await runScenario(scenario, round);
      runs[i]?.cold.push(result.cold);
      runs[i]?.warm.push(result.warm);
    }
  }
} finally {
  await runCleanup();
}
console.log(
  `\n${connections} connections; each case a fresh serve on a new database: cold = its first ${coldSeconds} s after it listens, warm = the next ${seconds} s; every request a new file (${describeLayout(manyFolders)}, or in the covered case ${describeLayout(fewFolders)}); medians of ${rounds} round(s); Node ${process.version}; ${new Date().toISOString().slice(0, 10)}`,
);
console.log(`load average (1 min) ${loadBefore.toFixed(1)} before, ${loadavg()[0]?.toFixed(1)} after, on ${availableParallelism()} cores`);
console.log(SUMMARY_HEADER);
for (const [i, scenario] of chosen.entries()) {
  console.log(formatRow(`${scenario.label}, cold`, runs[i]?.cold ?? []));
  console.log(formatRow(`${scenario.label}, warm`, runs[i]?.warm ?? []));
}

/** `durationSec` of load from the `first`-th file of the layout on; what it saw and what serve spent meanwhile. */
async function measurePhase(serve: ServeChild, url: string, layout: FileLayout, durationSec: number, first: number) {
  const [cpuBefore, ownCpuBefore] = [readCpuSeconds(serve.pid), process.cpuUsage()];
  const logBefore = logSize(serve);
  const from = Date.now();
  const summary = await runLoad({ url, connections, durationSec, bodyOf: (n) => sonarrDownloadBody(episodeAt(layout, first + n)) });
  const own = process.cpuUsage(ownCpuBefore);
  const run: CaseRun = {
    summary,
    serveCpu: (readCpuSeconds(serve.pid) - cpuBefore) / summary.seconds,
    loopMax: serve.loopDelayMax(from, Date.now()),
  };
  return { run, benchCpu: (own.user + own.system) / 1e6 / summary.seconds, logBytes: logSize(serve) - logBefore };
}

async function runScenario(scenario: Scenario, round: number): Promise<{ cold: CaseRun; warm: CaseRun }> {
  const dir = makeTempDir();
  writeBenchConfig(dir, benchConfig(plex.url, plex.token, scenario.config?.(dir)));
  const serve = await startServeChild(dir, { logLevel: scenario.logLevel, cpuProfDir });
  const url = `http://127.0.0.1:${serve.port}/${BENCH_PASS}`;
  for (const filepath of scenario.prequeue) {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ eventType: "Manual", filepath }).toString(),
    });
    if (res.status !== 202) throw new Error(`pre-queueing ${filepath} answered ${res.status}: ${await res.text()}`);
  }
  const idleRss = readRssBytes(serve.pid);
  const cold = await measurePhase(serve, url, scenario.layout, coldSeconds, 0);
  const warm = await measurePhase(serve, url, scenario.layout, seconds, cold.run.summary.sent);
  const pending = await queueCount(`http://127.0.0.1:${serve.port}/api/${BENCH_PASS}?cmd=queue_count`);
  const rss = readRssBytes(serve.pid);
  const code = await serve.stop();
  console.log(`\nround ${round + 1}: ${scenario.label}`);
  for (const [phase, p] of [
    ["cold", cold],
    ["warm", warm],
  ] as const)
    report(phase, p.run, p.benchCpu, p.logBytes);
  const acked = cold.run.summary.acked + warm.run.summary.acked;
  console.log(
    `  pending scans after both ${pending} (202s ${acked}; a covered request adds none)  serve RSS ${mb(idleRss)} idle -> ${mb(rss)} after; exit code on SIGTERM ${code}`,
  );
  return { cold: cold.run, warm: warm.run };
}

/** Two anchor files that exist: each delivery and expiry checks them (they never go missing here). */
function anchorsIn(dir: string): Partial<Config> {
  const anchors = ["movies.anchor", "tv.anchor"].map((name) => path.join(dir, name));
  for (const file of anchors) writeFileSync(file, "");
  return { ANCHORS: anchors };
}

async function queueCount(url: string): Promise<number> {
  const res = await fetch(url);
  return ((await res.json()) as { queue_count: number }).queue_count;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function report(phase: string, run: CaseRun, benchCpu: number, logBytes: number): void {
  const s: LoadSummary = run.summary;
  const verdict = s.ackPerSec >= 5_000 && s.p99 < 50 ? "meets" : "MISSES";
  console.log(
    `  ${phase}: 202/s ${Math.round(s.ackPerSec)}  p50 ${s.p50} ms  p97.5 ${s.p975} ms  p99 ${s.p99} ms  max ${s.max} ms  -> ${verdict} the target (>= 5,000/s, p99 < 50 ms)`,
  );
  console.log(`    answers ${JSON.stringify(s.statusCodes)}  non-2xx ${s.non2xx}  errors ${s.errors}  timeouts ${s.timeouts}`);
  console.log(
    `    CPU: serve ${(run.serveCpu * 100).toFixed(0)}% of a core (${Math.round((run.serveCpu * 1e6) / Math.max(1, s.ackPerSec))} µs/request), load generator ${(benchCpu * 100).toFixed(0)}%; log ${mb(logBytes)} (${Math.round(logBytes / Math.max(1, s.total))} B/request); serve loop max ${run.loopMax} ms`,
  );
}
