/**
 * The SQL part of a webhook's cost (issue 26), without HTTP in the way: the
 * ScanQueue and group commit as `serve` builds them (one target, a 1-hour
 * delay), on a real SQLite file, fed the requests the one ingest pipeline
 * makes of the wrk load of `ingest.ts --wrk` (Sonarr Download, 100 series ×
 * 2 seasons, 1,000 episode files). Each round sends `batches` group commits
 * of 64 requests (64 connections' worth, enqueued in one turn, awaited
 * together) and takes the process's CPU time (user + system) per request,
 * a WAL checkpoint of the round's writes included (serve runs it on a
 * thread: CPU all the same). Three cases, each round: the wrk load itself
 * (each request merges into the open scan of its season folder and names a
 * file named before), the same requests naming a file never named before,
 * and each request a new season folder. Prints the median of the rounds.
 * `--base <checkout>` runs another checkout's queue code in the same
 * process, rounds alternating, and exits 1 unless both gave every request
 * of the first rounds the same outcome.
 *
 *   node --import tsx bench/enqueue-cost.ts [batches=200] [rounds=9] [--base <checkout>]
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { EnqueueOutcome, ScanRequest, ScanSink } from "../src/domain.js";
import { createIngest } from "../src/ingest/pipeline.js";
import { createServerMapper, createSourceTable } from "../src/ingest/sources.js";
import { systemClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { BENCH_PASS, benchConfig } from "./lib/bench-config.js";
import { makeTempDir, onCleanup, runCleanup } from "./lib/cleanup.js";
import type { Database } from "better-sqlite3";

const BATCH = 64;
const args = process.argv.slice(2);
const baseAt = args.indexOf("--base");
const baseRoot = baseAt >= 0 ? path.resolve(args[baseAt + 1] ?? "") : undefined;
const [batches = 200, rounds = 9] = args.filter((_, i) => baseAt < 0 || (i !== baseAt && i !== baseAt + 1)).map(Number);

/** The requests the pipeline makes of the wrk bench's 1,000 Sonarr bodies, one array per webhook. */
async function wrkRequests(): Promise<ScanRequest[][]> {
  const config = benchConfig("http://127.0.0.1:1", "token");
  const made: ScanRequest[][] = [];
  const ingest = createIngest({
    mapper: createServerMapper(config),
    sources: createSourceTable(config),
    ignoreList: config.SERVER_IGNORE_LIST,
    sink: {
      enqueue: async (requests) => {
        made.push(requests);
        return { queued: requests.map((r) => r.folder), covered: [] };
      },
    },
  });
  for (let n = 0; n < 1_000; n++) {
    const [series, season, episode] = [n % 100, (Math.floor(n / 100) % 2) + 1, (Math.floor(n / 200) % 24) + 1];
    const file = `/tv/Show ${series}/Season ${season}/Show ${series} - S${season}E${episode} - Episode Title WEBDL-1080p.mkv`;
    await ingest([{ path: file, kind: "file" }], "sonarr", "Download");
  }
  return made;
}

interface Subject {
  name: string;
  sink: ScanSink;
  db: Database;
  samples: Map<string, number[]>;
  outcomes: string[];
}

/** A ScanQueue and its group commit, from the queue code of `root`, on a new database file. */
async function subjectOf(name: string, root: string): Promise<Subject> {
  const load = (file: string) => import(pathToFileURL(path.join(root, "src/queue", file)).href);
  const [{ openDatabase }, { ScanQueue }, { createGroupCommit }] = await Promise.all([
    load("database.ts"),
    load("scan-queue.ts"),
    load("group-commit.ts"),
  ]);
  const db = openDatabase(path.join(makeTempDir(), "scanarr.db"));
  onCleanup(() => db.close());
  const config = benchConfig("http://127.0.0.1:1", BENCH_PASS);
  const queue = new ScanQueue({
    db,
    clock: systemClock,
    targets: ["plex"],
    delayMs: config.SERVER_SCAN_DELAY * 1000,
    logger: silentLogger(),
  });
  const sink: ScanSink = createGroupCommit(queue, (fn: () => unknown) => queue.batch(fn), ScanQueue.checkRequests);
  return { name, sink, db, samples: new Map(), outcomes: [] };
}

/** `batches` group commits of 64 webhooks and a checkpoint of what they wrote: CPU µs per webhook. */
async function runRound(subject: Subject, requests: ScanRequest[][], record: boolean): Promise<number> {
  const before = process.cpuUsage();
  for (let b = 0; b < batches; b++) {
    const calls: Promise<EnqueueOutcome>[] = [];
    for (let i = 0; i < BATCH; i++) calls.push(subject.sink.enqueue(requests[(b * BATCH + i) % requests.length] as ScanRequest[]));
    const outcomes = await Promise.all(calls);
    if (record) for (const o of outcomes) subject.outcomes.push(`${o.queued.join(",")}|${o.covered.join(",")}`);
  }
  subject.db.pragma("wal_checkpoint(PASSIVE)");
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (batches * BATCH);
}

/** The wrk load's requests with each folder made new (`New <round>-<n>`): every request creates a scan. */
function newFolderRequests(wrk: ScanRequest[][], round: number): ScanRequest[][] {
  return Array.from({ length: batches * BATCH }, (_, n) => {
    const text = JSON.stringify(wrk[n % wrk.length]).replace(/Show \d+\//g, `New ${round}-${n}/`);
    return JSON.parse(text) as ScanRequest[];
  });
}

/** The wrk load's requests, each naming an episode file not named before (`E<round>x<n>`): a new path in an open scan. */
function newFileRequests(wrk: ScanRequest[][], round: number): ScanRequest[][] {
  return Array.from({ length: batches * BATCH }, (_, n) => {
    const text = JSON.stringify(wrk[n % wrk.length]).replace(/ - S(\d+)E\d+ - /g, ` - S$1E${round}x${n} - `);
    return JSON.parse(text) as ScanRequest[];
  });
}

const wrk = await wrkRequests();
const cases: Array<{ label: string; requests: (round: number) => ScanRequest[][] }> = [
  { label: "merge into its open season folder (the wrk load)", requests: () => wrk },
  { label: "a new file in its open season folder", requests: (round) => newFileRequests(wrk, round) },
  { label: "a new season folder each (creates a scan)", requests: (round) => newFolderRequests(wrk, round) },
];
const subjects = [await subjectOf("this checkout", path.resolve(import.meta.dirname, ".."))];
if (baseRoot) subjects.push(await subjectOf(`base (${path.basename(baseRoot)})`, baseRoot));
// A first round fills each queue with the open scans the merges go into; its outcomes are compared.
for (const subject of subjects) await runRound(subject, wrk, true);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? subjects : [...subjects].reverse();
  for (const { label, requests } of cases) {
    const made = requests(round);
    for (const subject of order) {
      const took = await runRound(subject, made, round === 0);
      subject.samples.set(label, [...(subject.samples.get(label) ?? []), took]);
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
console.log(
  `${batches} batches of ${BATCH} requests per round, ${rounds} rounds${subjects.length > 1 ? " alternating" : ""}; ` +
    `Node ${process.version}; ${new Date().toISOString().slice(0, 16)}Z`,
);
for (const { label } of cases) {
  console.log(label);
  const reference = median(subjects.at(-1)?.samples.get(label) ?? []);
  for (const s of subjects) {
    const xs = s.samples.get(label) ?? [];
    const m = median(xs);
    const range = `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
    console.log(
      `  ${s.name.padEnd(28)} median ${m.toFixed(1).padStart(5)} µs CPU/request (rounds ${range})  ratio ${(m / reference).toFixed(3)}`,
    );
  }
}
const [mine, base] = subjects;
if (mine && base) {
  const differ = mine.outcomes.filter((o, i) => o !== base.outcomes[i]).length;
  console.log(`outcomes of the first rounds: ${differ === 0 ? `the same for all ${mine.outcomes.length} requests` : `${differ} differ`}`);
  if (differ > 0) process.exitCode = 1;
}
await runCleanup();
