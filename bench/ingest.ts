/**
 * Ingest rate of the real `scanarr serve` (a child process, durable SQLite
 * queue, info logging) under autocannon: 64 keep-alive connections POSTing
 * Sonarr Download webhooks. Target on a 2-core machine: >= 5,000 acknowledged
 * (202) webhooks/s with p99 < 50 ms.
 *
 * The last cases add what a full install runs: `/metrics` on (issue 14: within
 * 5 % of off), two anchors checked (issue 10), Jellyfin and Emby as two
 * more targets (issue 12), and regular-expression rewrites with a source's
 * filter and priority (issue 24). `--cases 1,4` runs some of them.
 *
 *   node --import tsx bench/ingest.ts [seconds=12] [connections=64] [--cases 1,2,...] [--cpu-prof <dir>]
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Config } from "../src/config/types.js";
import { startOtherServers } from "../test/fakes/other-servers.js";
import { startFakePlex } from "../test/fakes/plex.js";
import { BENCH_PASS, BENCH_SECTIONS, benchConfig, writeBenchConfig } from "./lib/bench-config.js";
import { makeTempDir, onCleanup, runCleanup } from "./lib/cleanup.js";
import { formatSummary, runLoad, SUMMARY_HEADER, type LoadSummary } from "./lib/load.js";
import { readCpuSeconds, readRssBytes } from "./lib/proc.js";
import { logSize, startServeChild } from "./lib/serve-child.js";
import { sonarrDownloadBody, type Episode } from "./lib/sonarr-payload.js";

const args = process.argv.slice(2);
const profIndex = args.indexOf("--cpu-prof");
const cpuProfDir = profIndex >= 0 ? path.resolve(args.splice(profIndex, 2)[1] ?? "cpu-profiles") : undefined;
const casesIndex = args.indexOf("--cases");
const only = casesIndex >= 0 ? (args.splice(casesIndex, 2)[1] ?? "").split(",").map(Number) : undefined;
const [seconds = 12, connections = 64] = args.map(Number);
const WARMUP_SEC = 2;
const COVERING_SERIES = 4;

interface Scenario {
  label: string;
  logLevel: "info" | "warn";
  /** Folders queued before the load (manual requests). */
  prequeue: string[];
  episodeOf: (n: number) => Episode;
  /** Config on top of the bench's (one Plex target, metrics off, no anchors). */
  config?: (dir: string) => Partial<Config>;
}

// Every request a season folder of its own: each one inserts a scan and its delivery.
const manyFolders = (n: number): Episode => ({ series: Math.floor(n / 10), season: (n % 10) + 1, episode: 1 });
// Eight season folders inside four pending series folders: each request is covered.
const fewFolders = (n: number): Episode => ({
  series: n % COVERING_SERIES,
  season: (Math.floor(n / COVERING_SERIES) % 2) + 1,
  episode: (n % 24) + 1,
});
const seriesFolders = Array.from({ length: COVERING_SERIES }, (_, s) => `/tv/Show ${s}/`);

const scenarios: Scenario[] = [
  { label: "many folders (new scan each), log info", logLevel: "info", prequeue: [], episodeOf: manyFolders },
  { label: "few folders (covered), log info", logLevel: "info", prequeue: seriesFolders, episodeOf: fewFolders },
  { label: "many folders (new scan each), log warn", logLevel: "warn", prequeue: [], episodeOf: manyFolders },
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
    episodeOf: manyFolders,
    config: () => ({ METRICS: { ENABLED: true } }),
  },
  { label: "many folders, log info, 2 anchors", logLevel: "info", prequeue: [], episodeOf: manyFolders, config: anchorsIn },
  {
    label: "many folders, log info, 3 targets",
    logLevel: "info",
    prequeue: [],
    episodeOf: manyFolders,
    config: () => ({ TARGETS: others.targets }),
  },
  {
    // Issue 24: three global rewrites none of which matches, then Sonarr's own that does, a filter and a priority.
    label: "many folders, log info, rewrites",
    logLevel: "info",
    prequeue: [],
    episodeOf: manyFolders,
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
const rows: string[] = [];
try {
  for (const scenario of chosen) rows.push(await runScenario(scenario));
} finally {
  await runCleanup();
}
console.log(
  `\n${connections} connections, ${seconds} s per case after a ${WARMUP_SEC} s warm-up; Node ${process.version}; ${new Date().toISOString().slice(0, 10)}`,
);
console.log(SUMMARY_HEADER);
for (const row of rows) console.log(row);

async function runScenario(scenario: Scenario): Promise<string> {
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
  // Warm-up folders start far above the measured ones so the two never collide.
  await runLoad({ url, connections, durationSec: WARMUP_SEC, bodyOf: (n) => sonarrDownloadBody(scenario.episodeOf(n + 10_000_000)) });
  const logBefore = logSize(serve);
  const [cpuBefore, ownCpuBefore] = [readCpuSeconds(serve.pid), process.cpuUsage()];
  const from = Date.now();
  const summary = await runLoad({ url, connections, durationSec: seconds, bodyOf: (n) => sonarrDownloadBody(scenario.episodeOf(n)) });
  const loopMax = serve.loopDelayMax(from, Date.now());
  const logBytes = logSize(serve) - logBefore;
  const own = process.cpuUsage(ownCpuBefore);
  const cpu = { serve: (readCpuSeconds(serve.pid) - cpuBefore) / seconds, bench: (own.user + own.system) / 1e6 / seconds };
  const pending = await queueCount(`http://127.0.0.1:${serve.port}/api/${BENCH_PASS}?cmd=queue_count`);
  const rss = readRssBytes(serve.pid);
  const code = await serve.stop();
  report(scenario.label, summary, { pending, logBytes, idleRss, rss, code, cpu });
  console.log(
    `  serve's longest event-loop delay during the run: ${loopMax} ms (the longest stretch the server could not take a new request)`,
  );
  return formatSummary(scenario.label, summary, cpu.serve, loopMax);
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

function report(
  label: string,
  s: LoadSummary,
  facts: { pending: number; logBytes: number; idleRss: number; rss: number; code: number | null; cpu: { serve: number; bench: number } },
): void {
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
  const verdict = s.ackPerSec >= 5_000 && s.p99 < 50 ? "meets" : "MISSES";
  console.log(`\n${label}`);
  console.log(
    `  202/s ${Math.round(s.ackPerSec)}  p50 ${s.p50} ms  p97.5 ${s.p975} ms  p99 ${s.p99} ms  max ${s.max} ms  -> ${verdict} the target (>= 5,000/s, p99 < 50 ms)`,
  );
  console.log(`  answers ${JSON.stringify(s.statusCodes)}  non-2xx ${s.non2xx}  errors ${s.errors}  timeouts ${s.timeouts}`);
  console.log(
    `  pending scans after the run ${facts.pending} (measured 202s ${s.acked})  log ${mb(facts.logBytes)} (${Math.round(facts.logBytes / Math.max(1, s.total))} B/request)`,
  );
  console.log(
    `  CPU during the run: serve ${(facts.cpu.serve * 100).toFixed(0)}% of a core (${Math.round((facts.cpu.serve * 1e6) / Math.max(1, s.ackPerSec))} µs/request), load generator ${(facts.cpu.bench * 100).toFixed(0)}%`,
  );
  console.log(`  serve RSS ${mb(facts.idleRss)} idle -> ${mb(facts.rss)} after; exit code on SIGTERM ${facts.code}`);
}
