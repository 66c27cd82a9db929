/**
 * What a burst of new-file webhooks writes to disk (issue 35): a fresh `serve`
 * child on a new database takes `webhooks` Sonarr imports at `connections` at a
 * time (autocannon), each a new episode file in one of 100 series folders
 * (season 1, taken in turn), then, in the same process, as many again (warm).
 * Per phase: bytes written per webhook by the process (`/proc/<pid>/io`
 * write_bytes: database, WAL and log, the checkpoints that follow the burst
 * included, read 1.5 s after the last answer), the largest WAL seen (looked at
 * every 2 ms), the database and WAL sizes after, log bytes per webhook, the
 * rate and p99. `--base <checkout>` runs another checkout's `serve` in the
 * same rounds, alternating, as the "before" row; figures are medians of
 * `--rounds`.
 *
 *   node --import tsx bench/writes.ts [webhooks=2000] [connections=8] [--rounds 3] [--base <dir>]
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { BENCH_PASS, benchInstall } from "./lib/bench-config.js";
import { runCleanup } from "./lib/cleanup.js";
import { runLoad } from "./lib/load.js";
import { median } from "./lib/median.js";
import { logSize, startServeChild, type ServeChild } from "./lib/serve-child.js";
import { sonarrDownloadBody } from "./lib/sonarr-payload.js";

const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && !all[i - 1]?.startsWith("--"));
const webhooks = Number(positional[0] ?? 2_000);
const connections = Number(positional[1] ?? 8);
const option = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const rounds = Number(option("--rounds") ?? 3);
const baseRoot = option("--base");
const SERIES = 100;
const SETTLE_MS = 1_500;

interface Phase {
  bytesPerWebhook: number;
  walPeak: number;
  database: number;
  wal: number;
  logPerWebhook: number;
  rate: number;
  p99: number;
  non2xx: number;
}

type Row = { label: string; phases: { cold: Phase[]; warm: Phase[] } };

try {
  const rows: Row[] = [{ label: "this checkout", phases: { cold: [], warm: [] } }];
  if (baseRoot) rows.unshift({ label: `base (${path.basename(path.resolve(baseRoot))})`, phases: { cold: [], warm: [] } });
  for (let round = 0; round < rounds; round++) {
    for (const row of rows) {
      const root = row.label === "this checkout" ? undefined : path.resolve(baseRoot as string);
      const [cold, warm] = await measure(root);
      row.phases.cold.push(cold);
      row.phases.warm.push(warm);
    }
  }
  report(rows);
} finally {
  await runCleanup();
}

async function measure(root: string | undefined): Promise<[Phase, Phase]> {
  const { installDir, paths } = await benchInstall();
  const serve = await startServeChild(installDir, root ? { root } : {});
  let episode = 0;
  const phase = () => runPhase(serve, paths.database, () => episode++);
  const cold = await phase();
  const warm = await phase();
  await serve.stop();
  return [cold, warm];
}

async function runPhase(serve: ServeChild, database: string, nextEpisode: () => number): Promise<Phase> {
  const wal = `${database}-wal`;
  const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);
  let walPeak = sizeOf(wal);
  const look = setInterval(() => (walPeak = Math.max(walPeak, sizeOf(wal))), 2);
  const written = writeBytes(serve.pid);
  const logged = logSize(serve);
  const summary = await runLoad({
    url: `http://127.0.0.1:${serve.port}/${BENCH_PASS}`,
    connections,
    amount: webhooks,
    bodyOf: () => {
      const n = nextEpisode();
      return sonarrDownloadBody({ series: n % SERIES, season: 1, episode: 1 + Math.floor(n / SERIES) });
    },
  });
  // The checkpoints after the burst write its pages into the database file: they count too.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  clearInterval(look);
  walPeak = Math.max(walPeak, sizeOf(wal));
  return {
    bytesPerWebhook: (writeBytes(serve.pid) - written) / webhooks,
    walPeak,
    database: sizeOf(database),
    wal: sizeOf(wal),
    logPerWebhook: (logSize(serve) - logged) / webhooks,
    rate: summary.acked / summary.seconds,
    p99: summary.p99,
    non2xx: summary.total - summary.acked,
  };
}

function writeBytes(pid: number): number {
  const match = /^write_bytes:\s+(\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"));
  return Number(match?.[1] ?? 0);
}

function report(rows: Row[]): void {
  const kib = (n: number) => (n / 1024).toFixed(1);
  console.log(
    `\n${webhooks} Sonarr imports at ${connections} at a time, each a new episode file in one of ${SERIES} series folders; ` +
      `cold = a fresh serve on a new database, warm = ${webhooks} more on the same process; medians of ${rounds} round(s); ` +
      `Node ${process.version}; ${new Date().toISOString().slice(0, 10)}\n`,
  );
  console.log(
    "| checkout | phase | KiB written/webhook | WAL peak MiB | database KiB | WAL after KiB | log B/webhook | req/s | p99 ms | non-202 |",
  );
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const row of rows) {
    for (const name of ["cold", "warm"] as const) {
      const runs = row.phases[name];
      const m = (f: (p: Phase) => number) => median(runs.map(f));
      console.log(
        `| ${row.label} | ${name} | ${kib(m((p) => p.bytesPerWebhook))} | ${(m((p) => p.walPeak) / 1048576).toFixed(2)} | ` +
          `${kib(m((p) => p.database))} | ${kib(m((p) => p.wal))} | ${Math.round(m((p) => p.logPerWebhook))} | ` +
          `${Math.round(m((p) => p.rate))} | ${m((p) => p.p99)} | ${runs.reduce((n, p) => n + p.non2xx, 0)} |`,
      );
    }
  }
}
