/**
 * Events-mode watcher cost through the real `scanarr serve` (a child
 * process) on a generated tree (default 1,000 folders × 100 files = 100,000
 * entries): RSS before and after the watcher started, the time until /health
 * says the watcher is "ok", the slowest /health answer and the child's longest
 * event-loop delay meanwhile, and how long
 * SIGTERM takes to stop the process. `--loop` adds a symlink to its parent
 * (`Show 0/loop -> ..`); `--mode poll` watches in poll mode instead, for
 * comparison. A baseline `serve` without WATCH comes first.
 *
 *   node --import tsx bench/watch-events.ts [folders=1000] [filesPerFolder=100] [--loop] [--mode poll] [--limit 60]
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { benchInstall } from "./lib/bench-config.js";
import { makeTempDir, runCleanup } from "./lib/cleanup.js";
import { readRssBytes } from "./lib/proc.js";
import { startServeChild, type ServeChild } from "./lib/serve-child.js";

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 1).length > 0 : false;
};
const option = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args.splice(i, 2)[1]) : fallback;
};
const withLoop = flag("--loop");
const limitSec = option("--limit", 60);
const modeAt = args.indexOf("--mode");
const mode: "events" | "poll" = modeAt >= 0 && args.splice(modeAt, 2)[1] === "poll" ? "poll" : "events";
const [folders = 1_000, perFolder = 100] = args.map(Number);
/** Past this the child is killed: the bench must not take the machine down with it. */
const RSS_CAP = 6 * 1024 ** 3;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

try {
  const root = generate();
  const baseline = await runServe(undefined);
  const watched = await runServe(root);
  console.log(`tree: ${folders} folders × ${perFolder} files = ${folders * perFolder} files${withLoop ? ", with Show 0/loop -> .." : ""}`);
  console.log(
    [
      "case",
      "RSS at listen",
      "RSS 2 s after ok (peak)",
      "ok after",
      "/health: first, slowest after it",
      "probes",
      "longest loop delay",
      "SIGTERM to exit",
    ].join(" | "),
  );
  for (const row of [baseline, watched]) console.log(row.join(" | "));
  const [idle = 0, loaded = 0] = [baseline, watched].map((row) => Number(row.at(-1)));
  console.log(`watcher's RSS: ${mb(loaded - idle)} (${((loaded - idle) / (folders * perFolder)).toFixed(0)} bytes per file)`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await runCleanup();
}

/** Runs one serve child (watching `root` when given); returns its table row with its settled RSS last. */
async function runServe(root: string | undefined): Promise<string[]> {
  const overrides = root ? { WATCH: [{ PATHS: [root], MODE: mode, MIN_AGE: 60 }] } : {};
  const { installDir } = await benchInstall(overrides);
  const serve = await startServeChild(installDir);
  const listenRss = readRssBytes(serve.pid);
  const started = performance.now();
  const startedAt = Date.now();
  let okAfter: number | undefined;
  // The first request after start-up pays for warming up (a few hundred ms without WATCH too): shown apart.
  let first: number | undefined;
  let slowest = 0;
  let probes = 0;
  let peak = listenRss;
  while (okAfter === undefined && performance.now() - started < limitSec * 1000 && peak < RSS_CAP) {
    const sent = performance.now();
    const state = await probeHealth(serve);
    if (first === undefined) first = performance.now() - sent;
    else slowest = Math.max(slowest, performance.now() - sent);
    probes++;
    peak = Math.max(peak, readRssBytes(serve.pid));
    if (state === "ok" || (!root && state !== undefined)) okAfter = performance.now() - started;
    else await pause(100);
  }
  const loopDelay = serve.loopDelayMax(startedAt, Date.now());
  await pause(2_000);
  const settled = readRssBytes(serve.pid);
  const stopStarted = performance.now();
  const code = await serve.stop();
  const stopMs = performance.now() - stopStarted;
  return [
    root ? `${mode}, ${folders * perFolder} files${withLoop ? " + loop" : ""}` : "no WATCH (baseline)",
    mb(listenRss),
    `${mb(settled)} (peak ${mb(peak)})`,
    okAfter === undefined ? `not ok after ${((performance.now() - started) / 1000).toFixed(1)} s` : `${(okAfter / 1000).toFixed(2)} s`,
    `${(first ?? 0).toFixed(0)} ms, ${slowest.toFixed(0)} ms`,
    String(probes),
    // loop-delay.mjs writes one line a second: a start shorter than that has none.
    okAfter !== undefined && okAfter < 1_500 ? "–" : `${loopDelay.toFixed(0)} ms`,
    `${(stopMs / 1000).toFixed(2)} s (exit ${code === null ? "none: SIGKILL after 15 s" : code})`,
    String(settled),
  ];
}

/** The watcher's state from /health ("" when no WATCH), undefined when it did not answer within 20 s. */
async function probeHealth(serve: ServeChild): Promise<string | undefined> {
  try {
    const res = await fetch(`http://127.0.0.1:${serve.port}/health`, { signal: AbortSignal.timeout(20_000) });
    const body = (await res.json()) as { watch?: Array<{ state: string }> };
    return body.watch?.[0]?.state ?? "";
  } catch {
    return undefined;
  }
}

function generate(): string {
  const root = path.join(makeTempDir("scanarr-bench-events-"), "media");
  for (let d = 0; d < folders; d++) {
    const dir = path.join(root, `Show ${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < perFolder; f++) writeFileSync(path.join(dir, `episode.${f}.mkv`), "");
  }
  if (withLoop) symlinkSync("..", path.join(root, "Show 0", "loop"));
  return root;
}
