import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { startFakePlex } from "../../test/fakes/plex.js";
import { BENCH_PASS, BENCH_SECTIONS, benchConfig, writeBenchConfig } from "./bench-config.js";
import { makeTempDir, onCleanup } from "./cleanup.js";
import { median } from "./median.js";
import { readCpuSeconds, readRssBytes } from "./proc.js";
import { startServeChild } from "./serve-child.js";
import { describeLayout, type FileLayout } from "./sonarr-payload.js";
import { ensureWrk, runWrk, startBusyLoop, writeWrkScript, type WrkResult } from "./wrk.js";

export interface WrkModeOptions {
  /** Length of the warm run (s). */
  seconds: number;
  /** Length of the cold run (s): the first seconds after a fresh server listens. */
  coldSeconds: number;
  connections: number;
  rounds: number;
  layout: FileLayout;
  /** A one-core busy loop runs beside the servers for the whole run. */
  busy: boolean;
  /** Another checkout (the code before a change) run side by side as a third server. */
  baseRoot?: string;
  /** Node flags of that third server only (e.g. the same checkout with --single-threaded-gc). */
  baseFlags?: string[];
  cpuProfDir?: string;
  nodeFlags?: string[];
}

/** One server process, fresh for each round. */
interface Running {
  url: string;
  pid: number;
  /** Event-loop delay max and worst per-second p99 (ms) of a time span; undefined for the bare server. */
  loop?: (from: number, to: number) => { max: number; p99: number; heldMax: number; heldP99: number };
  stop(): Promise<void>;
}

interface Subject {
  name: string;
  start(): Promise<Running>;
}

type Phase = "cold" | "warm";

interface Run extends WrkResult {
  cpuUsPerReq: number;
  rssMb: number;
  loopMax?: number;
  loopP99?: number;
  /** How long serve held a request, headers parsed to answer written: the longest, and the worst second's p99. */
  heldMax?: number;
  heldP99?: number;
}

const BARE = "bare node:http";

/** The bare node:http server (reads the body, answers 202) in a child process. */
export async function startBare(): Promise<Running> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "bare-server.mjs")], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  onCleanup(() => void child.kill("SIGKILL"));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`the bare server exited ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/** A `serve` child on a fresh install (new database), removed when it stops. */
async function startServe(
  root: string | undefined,
  options: WrkModeOptions,
  plex: { url: string; token: string },
  moreFlags: string[] = [],
) {
  const dir = makeTempDir();
  writeBenchConfig(dir, benchConfig(plex.url, plex.token));
  const nodeFlags = [...(options.nodeFlags ?? []), ...moreFlags];
  const serve = await startServeChild(dir, { logLevel: "info", cpuProfDir: options.cpuProfDir, root, nodeFlags });
  return {
    url: `http://127.0.0.1:${serve.port}/${BENCH_PASS}`,
    pid: serve.pid,
    loop: (from: number, to: number) => ({
      max: serve.loopDelayMax(from, to),
      p99: serve.loopDelayP99(from, to),
      heldMax: serve.requestTimeMax(from, to),
      heldP99: serve.requestTimeP99(from, to),
    }),
    stop: async () => {
      await serve.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `wrk -t1 -c64` against `serve` (real config, fake Plex, real SQLite) and the
 * bare node:http server in the same run, `rounds` times, alternating. Each
 * round starts every server fresh (serve on a new database) and measures it
 * twice: cold, the first `coldSeconds` after it listens, then warm, the same
 * process for `seconds` more. Every request names a new file (the layout
 * says whether folders repeat). Prints each run, then the medians with
 * serve's ratios to the bare server of the same phase.
 */
export async function runWrkMode(options: WrkModeOptions): Promise<void> {
  const wrk = ensureWrk();
  const plex = await startFakePlex({ sections: BENCH_SECTIONS });
  onCleanup(() => plex.close());
  const script = writeWrkScript(makeTempDir(), { layout: options.layout });
  const subjects: Subject[] = [
    { name: BARE, start: startBare },
    { name: "serve", start: () => startServe(undefined, options, plex) },
  ];
  if (options.baseRoot) {
    const { baseRoot, baseFlags } = options;
    const name = `serve (${path.basename(baseRoot)}${baseFlags?.length ? ` ${baseFlags.join(" ")}` : ""})`;
    subjects.push({ name, start: () => startServe(baseRoot, options, plex, baseFlags) });
  }
  const busy = options.busy ? startBusyLoop() : undefined;
  onCleanup(() => busy?.stop());
  const loadBefore = loadavg();
  const runs = new Map<string, Run[]>();
  const measure = async (subject: Subject, server: Running, phase: Phase, seconds: number, first: number, round: number) => {
    const cpuBefore = readCpuSeconds(server.pid);
    const from = Date.now();
    const result = await runWrk(wrk, script, server.url, { threads: 1, connections: options.connections, seconds, first });
    const to = Date.now();
    const cpu = readCpuSeconds(server.pid) - cpuBefore;
    const loop = server.loop?.(from, to);
    const run: Run = {
      ...result,
      cpuUsPerReq: (cpu * 1e6) / Math.max(1, result.requests - result.errors),
      rssMb: readRssBytes(server.pid) / 1024 / 1024,
      loopMax: loop?.max,
      loopP99: loop?.p99,
      heldMax: loop?.heldMax,
      heldP99: loop?.heldP99,
    };
    const key = `${subject.name}|${phase}`;
    runs.set(key, [...(runs.get(key) ?? []), run]);
    console.log(
      `round ${round + 1} ${subject.name.padEnd(24)} ${phase} ${Math.round(run.perSec)}/s  p50 ${run.p50.toFixed(1)} ms  p99 ${run.p99.toFixed(1)} ms  max ${run.max.toFixed(0)} ms  errors ${run.errors}  CPU ${Math.round(run.cpuUsPerReq)} µs/req  RSS ${run.rssMb.toFixed(0)} MB${loop ? `  loop delay max ${loop.max} ms, worst-second p99 ${loop.p99} ms; held max ${loop.heldMax} ms, worst-second p99 ${loop.heldP99} ms` : ""}`,
    );
    return result.next;
  };
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? subjects : [...subjects].reverse();
    for (const subject of order) {
      const server = await subject.start();
      const next = await measure(subject, server, "cold", options.coldSeconds, 0, round);
      await measure(subject, server, "warm", options.seconds, next, round);
      await server.stop();
    }
  }
  busy?.stop();
  const loadAfter = loadavg();
  console.log(
    `\nwrk -t1 -c${options.connections}, ${options.rounds} alternated rounds, each server fresh every round: cold = its first ${options.coldSeconds} s after it listens, warm = the next ${options.seconds} s; Sonarr Download JSON, ${describeLayout(options.layout)}${options.busy ? "; one-core busy loop beside" : ""}; Node ${process.version}; ${new Date().toISOString()}`,
  );
  console.log(
    `load average (1 min) ${loadBefore[0]?.toFixed(1)} before, ${loadAfter[0]?.toFixed(1)} after, on ${availableParallelism()} cores`,
  );
  console.log(
    "| server | phase | req/s | × bare | p50 ms | p99 ms | p99 ÷ bare | max ms | loop delay max ms | loop p99 ms | held p99 ms | held max ms | µs CPU/req | RSS MB | errors |",
  );
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const phase of ["cold", "warm"] as const) {
    const ref = runs.get(`${BARE}|${phase}`) ?? [];
    const refRate = median(ref.map((r) => r.perSec));
    const refP99 = median(ref.map((r) => r.p99));
    for (const subject of subjects) {
      const list = runs.get(`${subject.name}|${phase}`) ?? [];
      const m = (f: (r: Run) => number | undefined) => median(list.map((r) => f(r) ?? 0));
      const rate = m((r) => r.perSec);
      const p99 = m((r) => r.p99);
      const loop =
        subject.name === BARE
          ? ["–", "–", "–", "–"]
          : [
              m((r) => r.loopMax).toFixed(0),
              m((r) => r.loopP99).toFixed(1),
              m((r) => r.heldP99).toFixed(1),
              m((r) => r.heldMax).toFixed(0),
            ];
      console.log(
        `| ${subject.name} | ${phase} | ${Math.round(rate).toLocaleString("en-US")} | ${(rate / refRate).toFixed(2)} | ${m((r) => r.p50).toFixed(1)} | ${p99.toFixed(1)} | ${(p99 / refP99).toFixed(1)} | ${m((r) => r.max).toFixed(0)} | ${loop.join(" | ")} | ${Math.round(m((r) => r.cpuUsPerReq))} | ${m((r) => r.rssMb).toFixed(0)} | ${list.reduce((n, r) => n + r.errors, 0)} |`,
      );
    }
  }
  console.log("(medians of the rounds; ratios to the bare server of the same phase; the bare server's CPU per request is its own)");
}
