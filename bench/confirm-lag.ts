/**
 * The webhooks' tail while Plex lags behind thousands of scans being
 * confirmed (issue 34's last target). A `serve` child (from source, info
 * logging) whose database holds N deliveries `confirming` (10,000 by
 * default), each a season folder of its own delivered over the last 110 s
 * and a file the fake Plex never lists (as while Plex is busy), takes the
 * wrk load of `ingest.ts --wrk --folders new` (`wrk -t1 -c64`, a new file
 * in a season folder of its own per request; the bench config's long delay
 * keeps those queued): cold, its first `--cold` seconds after it listens,
 * then warm, the next `--seconds`. Beside it in the same rounds (order
 * alternating), the same serve with `PLEX_CONFIRM_SCANS: false` and nothing
 * confirming, the reference of the ratio; `--base <checkout>` runs another
 * checkout's serve on the same filled database as a third case. Per case
 * and phase: req/s, p50/p99/max, serve's longest event-loop delay, the
 * fake Plex's folder listings (the files looked up) and section lists
 * during the run, deliveries still confirming at the end, RSS after; the
 * medians of `--rounds`, and each case's p99 ÷ the p99 with confirmation off.
 *
 *   node --import tsx bench/confirm-lag.ts [confirming] [--rounds 3] [--cold 8] [--seconds 8] [--base <checkout>]
 */
import { loadavg } from "node:os";
import { ManualClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { ScanQueue } from "../src/queue/scan-queue.js";
import { openDatabase } from "../src/queue/storage/database.js";
import { BENCH_PASS, benchInstall } from "./lib/bench-config.js";
import { makeTempDir, runCleanup } from "./lib/cleanup.js";
import { median } from "./lib/median.js";
import { readRssBytes } from "./lib/proc.js";
import { startServeChild } from "./lib/serve-child.js";
import { WRK_LAYOUTS } from "./lib/sonarr-payload.js";
import { ensureWrk, runWrk, type WrkResult, writeWrkScript } from "./lib/wrk.js";

const args = process.argv.slice(2);
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const confirming = Number(args[0] && !args[0].startsWith("--") ? args[0] : 10_000);
const rounds = Number(option("--rounds") ?? 3);
const coldSeconds = Number(option("--cold") ?? 8);
const seconds = Number(option("--seconds") ?? 8);
const base = option("--base");
/** The deliveries' scan calls are spread over this much time before the start, short of the 120 s re-scan delay. */
const SPREAD_MS = 110_000;

interface Case {
  name: string;
  confirm: boolean;
  root?: string;
}

interface Row {
  wrk: WrkResult;
  loopMax: number;
  folderListings: number;
  sectionLists: number;
  rssMb: number;
}

const CASES: Case[] = [
  { name: "confirmation off, nothing confirming", confirm: false },
  { name: `confirmation on, ${confirming.toLocaleString("en-US")} confirming`, confirm: true },
  ...(base ? [{ name: `--base ${base}, ${confirming.toLocaleString("en-US")} confirming`, confirm: true, root: base }] : []),
];

try {
  const wrk = ensureWrk();
  const script = writeWrkScript(makeTempDir(), { layout: WRK_LAYOUTS.new, path: `/${BENCH_PASS}` });
  const results = new Map<string, { cold: Row[]; warm: Row[]; left: number[] }>(
    CASES.map((c) => [c.name, { cold: [], warm: [], left: [] }]),
  );
  console.log(`load average (1 min) ${loadavg()[0]?.toFixed(2)} before`);
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? CASES : [...CASES].reverse();
    for (const c of order) {
      const r = await runCase(c, wrk, script);
      const into = results.get(c.name);
      into?.cold.push(r.cold);
      into?.warm.push(r.warm);
      into?.left.push(r.left);
      for (const [phase, row] of [
        ["cold", r.cold],
        ["warm", r.warm],
      ] as const) {
        console.log(
          `round ${round + 1} ${c.name.padEnd(40)} ${phase} ${Math.round(row.wrk.perSec)}/s p50 ${row.wrk.p50} ms p99 ${row.wrk.p99} ms max ${row.wrk.max} ms loop max ${row.loopMax} ms folder listings ${row.folderListings} section lists ${row.sectionLists} errors ${row.wrk.errors}`,
        );
      }
    }
  }
  console.log(`load average (1 min) ${loadavg()[0]?.toFixed(2)} after, on 2 cores; Node ${process.version}; ${new Date().toISOString()}`);
  console.log(
    "\n| case | phase | req/s | p50 ms | p99 ms | p99 ÷ off | max ms | loop delay max ms | folder listings | section lists | confirming at the end | RSS after MB | p99 each round |",
  );
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  const off = results.get(CASES[0]?.name ?? "");
  for (const c of CASES) {
    const r = results.get(c.name);
    if (!r || !off) continue;
    for (const phase of ["cold", "warm"] as const) {
      const rows = r[phase];
      const p99 = median(rows.map((x) => x.wrk.p99));
      const ratio = p99 / median(off[phase].map((x) => x.wrk.p99));
      const cells = [
        c.name,
        phase,
        Math.round(median(rows.map((x) => x.wrk.perSec))).toLocaleString("en-US"),
        median(rows.map((x) => x.wrk.p50)).toFixed(1),
        p99.toFixed(1),
        ratio.toFixed(2),
        Math.round(median(rows.map((x) => x.wrk.max))),
        Math.round(median(rows.map((x) => x.loopMax))),
        Math.round(median(rows.map((x) => x.folderListings))).toLocaleString("en-US"),
        Math.round(median(rows.map((x) => x.sectionLists))),
        phase === "warm" ? Math.round(median(r.left)).toLocaleString("en-US") : "",
        median(rows.map((x) => x.rssMb)).toFixed(1),
        rows.map((x) => Math.round(x.wrk.p99)).join(" / "),
      ];
      console.log(`| ${cells.join(" | ")} |`);
    }
  }
  const failed = [...results.values()].flatMap((r) => [...r.cold, ...r.warm]).some((x) => x.wrk.errors > 0);
  if (failed) {
    console.log("some answers were not 2xx");
    process.exitCode = 1;
  }
} finally {
  await runCleanup();
}

async function runCase(c: Case, wrk: string, script: string): Promise<{ cold: Row; warm: Row; left: number }> {
  const { plex, installDir, paths } = await benchInstall({ PLEX_CONFIRM_SCANS: c.confirm });
  if (c.confirm) fillConfirming(paths.database, confirming);
  const serve = await startServeChild(installDir, c.root ? { root: c.root } : {});
  const url = `http://127.0.0.1:${serve.port}/`;
  const phase = async (secs: number, first: number): Promise<Row> => {
    const before = { requests: plex.requests.length, at: Date.now() };
    const result = await runWrk(wrk, script, url, { threads: 1, connections: 64, seconds: secs, first });
    const during = plex.requests.slice(before.requests);
    return {
      wrk: result,
      loopMax: serve.loopDelayMax(before.at, Date.now()),
      folderListings: during.filter((r) => r.url.includes("/folder")).length,
      sectionLists: during.filter((r) => r.url === "/library/sections").length,
      rssMb: readRssBytes(serve.pid) / 1024 / 1024,
    };
  };
  const cold = await phase(coldSeconds, 0);
  const warm = await phase(seconds, cold.wrk.next);
  await serve.stop();
  const db = openDatabase(paths.database);
  const left = (db.prepare("SELECT COUNT(*) AS n FROM scan_delivery WHERE state = 'confirming'").get() as { n: number }).n;
  db.close();
  return { cold, warm, left };
}

/** `count` deliveries accepted by Plex and waiting to be confirmed, their scan calls spread over the last SPREAD_MS. */
function fillConfirming(file: string, count: number): void {
  const db = openDatabase(file);
  const clock = new ManualClock(Date.now() - SPREAD_MS);
  const queue = new ScanQueue({ db, clock, targets: ["plex"], delayMs: 0, logger: silentLogger() });
  const folder = (i: number) => `/data/TV/Lagging ${i}/Season 1`;
  for (let start = 0; start < count; start += 5_000) {
    const requests = [];
    for (let i = start; i < Math.min(count, start + 5_000); i++) {
      requests.push({ folder: folder(i), source: "sonarr", event: "Download", files: [`${folder(i)}/Lagging ${i} - S01E01.mkv`] });
    }
    queue.enqueue(requests);
  }
  for (let recorded = 0; recorded < count; ) {
    const jobs = queue.claimDue("plex", 100);
    if (jobs.length === 0) throw new Error(`only ${recorded} of ${count} deliveries could be claimed`);
    for (const job of jobs) queue.recordDelivered(job, [{ id: "2", title: "TV Shows" }], true);
    recorded += jobs.length;
    clock.advance((SPREAD_MS * jobs.length) / count);
  }
  db.close();
}
