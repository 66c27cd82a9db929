/**
 * The SQL part of a webhook's cost (issue 26), without HTTP in the way: the
 * ScanQueue and group commit as `serve` builds them (one target, a 1-hour
 * delay, file checks on as by default), on a real SQLite file, fed the requests the one ingest pipeline
 * makes of Sonarr Download webhooks over 100 series × 2 season folders (the
 * folders of `ingest.ts --wrk`). Each round sends `batches` group commits
 * of 64 requests (64 connections' worth, enqueued in one turn, awaited
 * together) and takes the process's CPU time (user + system) per request,
 * a WAL checkpoint of the round's writes included (serve runs it on a
 * thread: CPU all the same). Three cases, each round: a file named before
 * (1,000 episode files named again and again: a repeat, what the wrk load
 * was until it named a new file per request), a file never named before in
 * the open scan of its season folder (the wrk load now), and each request a
 * new season folder (`--folders new`, the autocannon cases). Prints the
 * median of the rounds; the first round, which opens the 200 scans, is not
 * counted (a cold start is what `ingest.ts` reports).
 * `--base <checkout>` (repeatable) runs another checkout's queue code in the
 * same process, rounds alternating, and exits 1 unless it gave every request
 * of the first rounds the outcome this checkout gave; the ratios are to the
 * last base.
 *
 *   node --import tsx bench/enqueue-cost.ts [batches=200] [rounds=9] [--base <checkout>]...
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { EnqueueOutcome, ScanRequest, ScanSink } from "../src/domain.js";
import { createIngest } from "../src/ingest/pipeline.js";
import { createServerMapper, createSourceTable } from "../src/ingest/sources.js";
import { systemClock } from "../src/lib/clock.js";
import { silentLogger } from "../src/lib/logger.js";
import { fileCheckPolicyOf } from "../src/mount/mount-safety.js";
import { BENCH_PASS, benchConfig } from "./lib/bench-config.js";
import { makeTempDir, onCleanup, runCleanup } from "./lib/cleanup.js";
import type { Database } from "better-sqlite3";

const BATCH = 64;
const args = process.argv.slice(2);
const baseRoots = args.flatMap((a, i) => (a === "--base" ? [path.resolve(args[i + 1] ?? "")] : []));
const [batches = 200, rounds = 9] = args.filter((a, i) => a !== "--base" && args[i - 1] !== "--base").map(Number);

/** The requests the pipeline makes of 1,000 Sonarr bodies over the 200 season folders, one array per webhook. */
async function namedRequests(): Promise<ScanRequest[][]> {
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

interface Queue {
  sink: ScanSink;
  db: Database;
}

type QueueFactory = () => Queue;

/** A maker of ScanQueues with their group commit, from the queue code of `root`, each on a new database file. */
async function queuesOf(root: string): Promise<QueueFactory> {
  const load = (file: string) => import(pathToFileURL(path.join(root, "src/queue", file)).href);
  const [{ openDatabase }, { ScanQueue }, { createGroupCommit }] = await Promise.all([
    load("storage/database.ts"),
    load("scan-queue.ts"),
    load("group-commit.ts"),
  ]);
  const config = benchConfig("http://127.0.0.1:1", BENCH_PASS);
  return () => {
    const db: Database = openDatabase(path.join(makeTempDir(), "scanarr.db"));
    onCleanup(() => void db.close());
    const queue = new ScanQueue({
      db,
      clock: systemClock,
      targets: ["plex"],
      delayMs: config.SERVER_SCAN_DELAY * 1000,
      // File checks as serve's default config has them (automatic): a named import holds its scan.
      fileChecks: fileCheckPolicyOf(config),
      logger: silentLogger(),
    });
    return { db, sink: createGroupCommit(queue, (fn: () => unknown) => queue.batch(fn), ScanQueue.checkRequests) };
  };
}

/** `batches` group commits of 64 webhooks and a checkpoint of what they wrote: CPU µs per webhook. */
async function runRound(queue: Queue, requests: ScanRequest[][], outcomes?: string[]): Promise<number> {
  const before = process.cpuUsage();
  for (let b = 0; b < batches; b++) {
    const calls: Promise<EnqueueOutcome>[] = [];
    for (let i = 0; i < BATCH; i++) calls.push(queue.sink.enqueue(requests[(b * BATCH + i) % requests.length] as ScanRequest[]));
    const answers = await Promise.all(calls);
    if (outcomes) for (const o of answers) outcomes.push(`${o.queued.join(",")}|${o.covered.join(",")}`);
  }
  queue.db.pragma("wal_checkpoint(PASSIVE)");
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (batches * BATCH);
}

/** The requests with each folder made new (`New <round>-<n>`): every request creates a scan. */
function newFolderRequests(named: ScanRequest[][], round: number): ScanRequest[][] {
  return Array.from({ length: batches * BATCH }, (_, n) => {
    const text = JSON.stringify(named[n % named.length]).replace(/Show \d+\//g, `New ${round}-${n}/`);
    return JSON.parse(text) as ScanRequest[];
  });
}

/** The requests, each naming an episode file not named before (`E<round>x<n>`): a new path in an open scan. */
function newFileRequests(named: ScanRequest[][], round: number): ScanRequest[][] {
  return Array.from({ length: batches * BATCH }, (_, n) => {
    const text = JSON.stringify(named[n % named.length]).replace(/ - S(\d+)E\d+ - /g, ` - S$1E${round}x${n} - `);
    return JSON.parse(text) as ScanRequest[];
  });
}

const named = await namedRequests();
const cases: Array<{ label: string; requests: (round: number) => ScanRequest[][] }> = [
  { label: "a file named before, in its open season folder (a repeat)", requests: () => named },
  { label: "a new file in its open season folder (the wrk load)", requests: (round) => newFileRequests(named, round) },
  { label: "a new season folder each (creates a scan; --folders new)", requests: (round) => newFolderRequests(named, round) },
];
const roots: Array<[string, string]> = [["this checkout", path.resolve(import.meta.dirname, "..")]];
for (const root of baseRoots) roots.push([`base (${path.basename(root)})`, root]);
const subjects: Array<{ name: string; queues: Queue[]; samples: number[][]; outcomes: string[] }> = [];
for (const [name, root] of roots) {
  const make = await queuesOf(root);
  subjects.push({ name, queues: cases.map(make), samples: cases.map(() => []), outcomes: [] });
}
// Each case has a queue of its own; a first round of the 1,000 requests opens the scans of its
// 200 season folders. The outcomes of that round and of each case's first are compared.
for (const subject of subjects) for (const queue of subject.queues) await runRound(queue, named, subject.outcomes);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? subjects : [...subjects].reverse();
  for (const [c, { requests }] of cases.entries()) {
    const made = requests(round);
    for (const subject of order) {
      const queue = subject.queues[c] as Queue;
      subject.samples[c]?.push(await runRound(queue, made, round === 0 ? subject.outcomes : undefined));
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
console.log(
  `${batches} batches of ${BATCH} requests per round, ${rounds} rounds${subjects.length > 1 ? " alternating" : ""}; ` +
    `Node ${process.version}; ${new Date().toISOString().slice(0, 16)}Z`,
);
for (const [c, { label }] of cases.entries()) {
  console.log(label);
  const reference = median(subjects.at(-1)?.samples[c] ?? []);
  for (const s of subjects) {
    const xs = s.samples[c] ?? [];
    const m = median(xs);
    const range = `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
    console.log(
      `  ${s.name.padEnd(28)} median ${m.toFixed(1).padStart(5)} µs CPU/request (rounds ${range})  ratio ${(m / reference).toFixed(3)}`,
    );
  }
}
const [mine, ...bases] = subjects;
for (const base of bases) {
  const differ = mine?.outcomes.filter((o, i) => o !== base.outcomes[i]).length ?? 0;
  console.log(
    `outcomes of the first rounds, ${base.name}: ${differ === 0 ? `the same for all ${base.outcomes.length} requests` : `${differ} differ`}`,
  );
  if (differ > 0) process.exitCode = 1;
}
await runCleanup();
