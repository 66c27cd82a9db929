/**
 * Memory of the real `scanarr serve` (a child process).
 *
 * First the idle RSS `IDLE_AFTER_S` seconds after the start, the median of
 * `runs` starts each, of the built `serve` (`node bin/scanarr.js`, as the
 * systemd unit and the image run it; `dist/` is compiled first) per feature
 * set: the default config, each feature alone on top of it (Jellyfin and Emby
 * as two more targets; the dashboard's page asked once, 4 s after the start),
 * and every feature on, beside a bare `node` that only waits. Each checkout's
 * serve gets the `Environment=` variables of its own contrib/scanarr.service,
 * as the unit gives them. `--base <checkout>` measures
 * another checkout (the code before a change; its `node_modules` may be a
 * symlink) in the same runs, alternating, as the "before" column. `--only
 * <start>` measures only the feature sets whose name starts so (`--only
 * default`: one set, for a quick look).
 * Then, from source as the other benches, the RSS after `folders` distinct
 * season folders were queued over HTTP (Sonarr webhooks, 32 connections),
 * plus the size of the SQLite queue on disk (folders=0 skips it).
 *
 *   node --import tsx bench/serve-memory.ts [folders=100000] [runs=3] [--base <checkout>] [--only <start>]
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { hashPassword } from "../src/auth/password-hash.js";
import type { Config } from "../src/config/types.js";
import { startFakeDrive } from "../test/fakes/drive.js";
import { startOtherServers } from "../test/fakes/other-servers.js";
import { fakeDriveCloud, writeFakeDriveToken } from "../test/helpers/service.js";
import { BENCH_PASS, benchInstall } from "./lib/bench-config.js";
import { makeTempDir, onCleanup, runCleanup } from "./lib/cleanup.js";
import { runLoad } from "./lib/load.js";
import { readRssBytes } from "./lib/proc.js";
import { buildDist, logSize, repoRoot, startServeChild } from "./lib/serve-child.js";
import { sonarrDownloadBody } from "./lib/sonarr-payload.js";

const args = process.argv.slice(2);
const baseAt = args.indexOf("--base");
const BASE = baseAt >= 0 ? path.resolve(args.splice(baseAt, 2)[1] ?? "") : undefined;
const onlyAt = args.indexOf("--only");
const ONLY = onlyAt >= 0 ? (args.splice(onlyAt, 2)[1] ?? "") : "";
const [FOLDERS = 100_000, RUNS = 3] = args.map(Number);
const IDLE_AFTER_S = 20;
/** When a feature set's `use` asks serve something: after start-up, well before the reading. */
const USE_AFTER_S = 4;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(): Promise<void> {
  const { installDir: dir } = await benchInstall();
  const serve = await startServeChild(dir);
  const database = path.join(dir, "data", "scanarr.db");
  await pause(2_000); // start-up garbage collected, library list fetched
  const idle = readRssBytes(serve.pid);

  // Ten seasons per series; every request is a season folder of its own.
  const load = await runLoad({
    url: `http://127.0.0.1:${serve.port}/${BENCH_PASS}`,
    connections: 32,
    amount: FOLDERS,
    bodyOf: (n) => sonarrDownloadBody({ series: Math.floor(n / 10), season: (n % 10) + 1, episode: 1 }),
  });
  const loaded = readRssBytes(serve.pid);
  await pause(5_000);
  const settled = readRssBytes(serve.pid);
  const res = await fetch(`http://127.0.0.1:${serve.port}/api/${BENCH_PASS}?cmd=queue_count`);
  const pending = ((await res.json()) as { queue_count: number }).queue_count;
  const dbBytes = statSync(database).size;
  const walBytes = existsSync(`${database}-wal`) ? statSync(`${database}-wal`).size : 0;
  const logBytes = logSize(serve);
  const code = await serve.stop();
  const afterStop = statSync(database).size;

  console.log(
    `queued:            ${pending} pending scans from ${load.acked} acknowledged webhooks (${JSON.stringify(load.statusCodes)}) in ${load.seconds.toFixed(1)} s`,
  );
  console.log(`serve RSS:         idle ${mb(idle)}; after the fill ${mb(loaded)}; 5 s later ${mb(settled)} (+${mb(settled - idle)})`);
  console.log(`queue on disk:     ${mb(dbBytes)} database + ${mb(walBytes)} WAL while running; ${mb(afterStop)} after a clean stop`);
  console.log(`log written:       ${mb(logBytes)} at info level`);
  console.log(`exit code on SIGTERM with ${pending} pending: ${code}`);
}

/** A feature set: the config keys that turn it on, and what the install needs beside them. */
interface FeatureSet {
  name: string;
  config: () => Promise<Partial<Config>>;
  /** Drive monitoring needs a token file. */
  driveToken?: boolean;
  /** What is asked of the running serve (at `origin`) a few seconds after its start, before the reading. */
  use?: (origin: string) => Promise<void>;
}

/**
 * Each feature idle (no login, scan, hook or message yet). "+ login" is the
 * dashboard's login (SERVER_USERNAME and a password hash); the dashboard's
 * pages are always on.
 */
const FEATURE_SETS: FeatureSet[] = [
  { name: "default config", config: async () => ({}) },
  { name: "+ metrics", config: async () => ({ METRICS: { ENABLED: true } }) },
  { name: "+ login", config: loginConfig },
  { name: "+ drive monitoring", config: driveConfig, driveToken: true },
  { name: "+ WATCH (events)", config: async () => watchConfig() },
  { name: "+ hooks, notifications", config: async () => hooksConfig() },
  { name: "+ Jellyfin and Emby targets", config: otherTargetsConfig },
  { name: "dashboard page asked once", config: async () => ({ SERVER_PORT: await freePort() }), use: askDashboardOnce },
  {
    name: "every feature on",
    config: async () => ({
      METRICS: { ENABLED: true },
      ...(await loginConfig()),
      ...(await driveConfig()),
      ...watchConfig(),
      ...hooksConfig(),
    }),
    driveToken: true,
  },
];

/** Idle RSS of bare node and of `serve` per feature set (this checkout and BASE), the median of RUNS starts each. */
async function measureIdle(): Promise<void> {
  const roots: Array<[string, string]> = BASE
    ? [
        ["before", BASE],
        ["after", repoRoot],
      ]
    : [["", repoRoot]];
  for (const [, root] of roots) buildDist(root);
  const cases: Array<[string, () => Promise<number>]> = [["bare node", () => idleRss(["-e", "setInterval(() => {}, 1000)"])]];
  for (const set of FEATURE_SETS.filter((one) => one.name.startsWith(ONLY))) {
    for (const [label, root] of roots) cases.push([`${set.name}${label ? ` | ${label}` : ""}`, () => idleServe(root, set)]);
  }
  const figures = new Map<string, number[]>();
  // Alternating, so a change in the machine's load touches every case alike.
  for (let run = 0; run < RUNS; run++) {
    for (const [name, measureOnce] of cases) figures.set(name, [...(figures.get(name) ?? []), await measureOnce()]);
  }
  console.log(
    `idle RSS ${IDLE_AFTER_S} s after the start, median of ${RUNS} (load average ${loadAverage()})${BASE ? `; before = ${BASE}` : ""}:`,
  );
  for (const [name, values] of figures) {
    console.log(`  ${name.padEnd(36)} ${mb(median(values))}   (runs: ${values.map(mb).join(", ")})`);
  }
}

/** The built `serve` of `root` on a fresh install with the feature set on. */
async function idleServe(root: string, set: FeatureSet): Promise<number> {
  const config = await set.config();
  const { installDir, paths } = await benchInstall(config);
  if (set.driveToken) writeFakeDriveToken(paths);
  const use = set.use;
  const origin = `http://127.0.0.1:${config.SERVER_PORT}`;
  return idleRss(
    [path.join(root, "bin/scanarr.js"), "--install-dir", installDir, "--log-level", "warn", "serve"],
    root,
    use && (() => use(origin)),
    unitEnvironment(root),
  );
}

/** The variables `root`'s systemd unit sets (`Environment=NAME=value ...` lines). */
function unitEnvironment(root: string): Record<string, string> {
  const unit = path.join(root, "contrib", "scanarr.service");
  if (!existsSync(unit)) return {};
  const words = [...readFileSync(unit, "utf8").matchAll(/^Environment=(.+)$/gm)].flatMap((line) => (line[1] ?? "").trim().split(/\s+/));
  return Object.fromEntries(words.map((word) => [word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]));
}

/** Jellyfin and Emby beside Plex (fakes), with only the fields every checkout's entries take. */
async function otherTargetsConfig(): Promise<Partial<Config>> {
  const servers = await startOtherServers();
  onCleanup(() => servers.close());
  const TARGETS = servers.targets.map(({ TYPE, NAME, URL, TOKEN, PATH_MAPPINGS }) => ({ TYPE, NAME, URL, TOKEN, PATH_MAPPINGS }));
  return { TARGETS } as Partial<Config>;
}

/** The dashboard's page and its script, as a browser asks for them once. */
async function askDashboardOnce(origin: string): Promise<void> {
  for (const url of [`${origin}/${BENCH_PASS}`, `${origin}/${BENCH_PASS}/dashboard.js`]) {
    const res = await fetch(url, { headers: { accept: "text/html" } });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
    server.once("error", reject);
  });
}

async function loginConfig(): Promise<Partial<Config>> {
  return { SERVER_USERNAME: "admin", SERVER_PASSWORD_HASH: await hashPassword("bench-password") };
}

/** Drive monitoring polling the fake Drive every 5 s. */
async function driveConfig(): Promise<Partial<Config>> {
  const drive = await startFakeDrive();
  onCleanup(() => drive.close());
  return { CLOUD: fakeDriveCloud(drive.url, ["My Drive/Media/TV/"], 5) };
}

function watchConfig(): Partial<Config> {
  const watched = makeTempDir("scanarr-bench-watch-");
  mkdirSync(path.join(watched, "TV"));
  return { WATCH: [{ PATHS: [watched], MODE: "events", MIN_AGE: 60 }] };
}

function hooksConfig(): Partial<Config> {
  return { RUN_COMMAND_AFTER_SCAN: ["true"], NOTIFICATIONS: [{ TYPE: "json", URL: "http://127.0.0.1:9/notify" }] };
}

/** Starts node with `args`, reads its RSS IDLE_AFTER_S seconds later, stops it. */
async function idleRss(args: string[], cwd = repoRoot, use?: () => Promise<void>, env: Record<string, string> = {}): Promise<number> {
  const child = spawn(process.execPath, args, {
    cwd,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, ...env, NO_COLOR: "1" },
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  onCleanup(async () => {
    child.kill("SIGKILL");
    await exited;
  });
  if (use) {
    await pause(USE_AFTER_S * 1_000);
    await use();
  }
  await pause((IDLE_AFTER_S - (use ? USE_AFTER_S : 0)) * 1_000);
  if (child.exitCode !== null) throw new Error(`node ${args.join(" ")} exited with ${child.exitCode} before the reading`);
  const rss = readRssBytes(child.pid ?? 0);
  child.kill("SIGTERM");
  await exited;
  return rss;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function loadAverage(): string {
  return (process.platform === "linux" ? execFileSync("cat", ["/proc/loadavg"], { encoding: "utf8" }).split(" ").slice(0, 3) : ["?"]).join(
    " ",
  );
}

try {
  await measureIdle();
  if (FOLDERS > 0) await measure();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await runCleanup();
}
