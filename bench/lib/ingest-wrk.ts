import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import path from "node:path";
import { startFakePlex } from "../../test/fakes/plex.js";
import { BENCH_PASS, BENCH_SECTIONS, benchConfig, writeBenchConfig } from "./bench-config.js";
import { makeTempDir, onCleanup } from "./cleanup.js";
import { readCpuSeconds } from "./proc.js";
import { startServeChild } from "./serve-child.js";
import type { Episode } from "./sonarr-payload.js";
import { ensureWrk, runWrk, startBusyLoop, writeWrkScript, type WrkResult } from "./wrk.js";

export interface WrkModeOptions {
  seconds: number;
  connections: number;
  rounds: number;
  /** A one-core busy loop runs beside the servers for the whole run. */
  busy: boolean;
  /** Another checkout (the code before a change) run side by side as a third server. */
  baseRoot?: string;
  /** Node flags of that third server only (e.g. the same checkout with --single-threaded-gc). */
  baseFlags?: string[];
  cpuProfDir?: string;
  nodeFlags?: string[];
}

interface Server {
  name: string;
  url: string;
  pid: number;
  /** Event-loop delay max and worst per-second p99 (ms) of a time span; undefined for the bare server. */
  loop?: (from: number, to: number) => { max: number; p99: number; heldMax: number; heldP99: number };
}

interface Run extends WrkResult {
  cpuUsPerReq: number;
  loopMax?: number;
  loopP99?: number;
  /** How long serve held a request, headers parsed to answer written: the longest, and the worst second's p99. */
  heldMax?: number;
  heldP99?: number;
}

// Sonarr Download bodies over 100 series folders (two seasons each), 1,000 distinct bodies.
const episodeOf = (n: number): Episode => ({
  series: n % 100,
  season: (Math.floor(n / 100) % 2) + 1,
  episode: (Math.floor(n / 200) % 24) + 1,
});

/** The bare node:http server (reads the body, answers 202) in a child process. */
export async function startBare(): Promise<{ url: string; pid: number; stop(): void }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "bare-server.mjs")], { stdio: ["ignore", "pipe", "inherit"] });
  onCleanup(() => void child.kill("SIGKILL"));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`the bare server exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid ?? 0, stop: () => void child.kill("SIGKILL") };
}

async function startServe(
  name: string,
  root: string | undefined,
  options: WrkModeOptions,
  plex: { url: string; token: string },
  moreFlags: string[] = [],
): Promise<Server> {
  const dir = makeTempDir();
  writeBenchConfig(dir, benchConfig(plex.url, plex.token));
  const nodeFlags = [...(options.nodeFlags ?? []), ...moreFlags];
  const serve = await startServeChild(dir, { logLevel: "info", cpuProfDir: options.cpuProfDir, root, nodeFlags });
  return {
    name,
    url: `http://127.0.0.1:${serve.port}/${BENCH_PASS}`,
    pid: serve.pid,
    loop: (from, to) => ({
      max: serve.loopDelayMax(from, to),
      p99: serve.loopDelayP99(from, to),
      heldMax: serve.requestTimeMax(from, to),
      heldP99: serve.requestTimeP99(from, to),
    }),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/**
 * `wrk -t1 -c64 -d8s` against `serve` (real config, fake Plex, real SQLite)
 * and the bare node:http server in the same run, alternating, `rounds` times;
 * prints each run, the medians and serve's ratios to the bare server.
 */
export async function runWrkMode(options: WrkModeOptions): Promise<void> {
  const wrk = ensureWrk();
  const plex = await startFakePlex({ sections: BENCH_SECTIONS });
  onCleanup(() => plex.close());
  const script = writeWrkScript(makeTempDir(), 1_000, episodeOf);
  const bare = await startBare();
  const servers: Server[] = [{ name: "bare node:http", ...bare }, await startServe("serve", undefined, options, plex)];
  if (options.baseRoot) {
    const name = `serve (${path.basename(options.baseRoot)}${options.baseFlags?.length ? ` ${options.baseFlags.join(" ")}` : ""})`;
    servers.push(await startServe(name, options.baseRoot, options, plex, options.baseFlags));
  }
  const busy = options.busy ? startBusyLoop() : undefined;
  onCleanup(() => busy?.stop());
  const load = { threads: 1, connections: options.connections };
  for (const server of servers) await runWrk(wrk, script, server.url, { ...load, seconds: 2 }); // warm-up
  const loadBefore = loadavg();
  const runs = new Map<string, Run[]>(servers.map((s) => [s.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) {
      const cpuBefore = readCpuSeconds(server.pid);
      const from = Date.now();
      const result = await runWrk(wrk, script, server.url, { ...load, seconds: options.seconds });
      const to = Date.now();
      const cpu = readCpuSeconds(server.pid) - cpuBefore;
      const loop = server.loop?.(from, to);
      const run: Run = {
        ...result,
        cpuUsPerReq: (cpu * 1e6) / Math.max(1, result.requests - result.errors),
        loopMax: loop?.max,
        loopP99: loop?.p99,
        heldMax: loop?.heldMax,
        heldP99: loop?.heldP99,
      };
      runs.get(server.name)?.push(run);
      console.log(
        `round ${round + 1} ${server.name.padEnd(24)} ${Math.round(run.perSec)}/s  p50 ${run.p50.toFixed(1)} ms  p99 ${run.p99.toFixed(1)} ms  max ${run.max.toFixed(0)} ms  errors ${run.errors}  CPU ${Math.round(run.cpuUsPerReq)} µs/req${loop ? `  loop delay max ${loop.max} ms, worst-second p99 ${loop.p99} ms; held max ${loop.heldMax} ms, worst-second p99 ${loop.heldP99} ms` : ""}`,
      );
    }
  }
  busy?.stop();
  const loadAfter = loadavg();
  const ref = runs.get("bare node:http") ?? [];
  const refRate = median(ref.map((r) => r.perSec));
  const refP99 = median(ref.map((r) => r.p99));
  console.log(
    `\nwrk -t1 -c${options.connections} -d${options.seconds}s, ${options.rounds} alternated rounds, Sonarr Download JSON over 100 series folders${options.busy ? ", one-core busy loop beside" : ""}; Node ${process.version}; ${new Date().toISOString()}`,
  );
  console.log(
    `load average (1 min) ${loadBefore[0]?.toFixed(1)} before, ${loadAfter[0]?.toFixed(1)} after, on ${(await import("node:os")).availableParallelism()} cores`,
  );
  console.log(
    "| server | req/s | × bare | p50 ms | p99 ms | p99 ÷ bare | max ms | loop delay max ms | loop p99 ms | held p99 ms | held max ms | µs CPU/req | errors |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const [name, list] of runs) {
    const m = (f: (r: Run) => number | undefined) => median(list.map((r) => f(r) ?? 0));
    const rate = m((r) => r.perSec);
    const p99 = m((r) => r.p99);
    const loop =
      name === "bare node:http"
        ? ["–", "–", "–", "–"]
        : [m((r) => r.loopMax).toFixed(0), m((r) => r.loopP99).toFixed(1), m((r) => r.heldP99).toFixed(1), m((r) => r.heldMax).toFixed(0)];
    console.log(
      `| ${name} | ${Math.round(rate).toLocaleString("en-US")} | ${(rate / refRate).toFixed(2)} | ${m((r) => r.p50).toFixed(1)} | ${p99.toFixed(1)} | ${(p99 / refP99).toFixed(1)} | ${m((r) => r.max).toFixed(0)} | ${loop[0]} | ${loop[1]} | ${loop[2]} | ${loop[3]} | ${Math.round(m((r) => r.cpuUsPerReq))} | ${list.reduce((n, r) => n + r.errors, 0)} |`,
    );
  }
  console.log("(medians of the rounds; the bare server's CPU per request is its own)");
}
