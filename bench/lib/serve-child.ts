import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serveBuiltArgs, serveFromSourceArgs } from "../../test/helpers/child-serve.js";
import { onCleanup } from "./cleanup.js";
import { findListeningPort } from "./proc.js";

// SCANARR_BENCH_ROOT points at another checkout (a patched copy) to compare against this one.
export const repoRoot = path.resolve(process.env.SCANARR_BENCH_ROOT ?? path.join(path.dirname(fileURLToPath(import.meta.url)), "../.."));

export interface ServeChild {
  child: ChildProcess;
  pid: number;
  port: number;
  /** Where the child's stdout and stderr (its log) go. */
  logFile: string;
  /** The child's longest event-loop delay (ms) in the seconds that overlap `from` to `to` (epoch ms). */
  loopDelayMax(from: number, to: number): number;
  /** The highest per-second p99 of the child's event-loop delay (ms) between `from` and `to`. */
  loopDelayP99(from: number, to: number): number;
  /** The longest time (ms) the child held a request (headers parsed to answer written) between `from` and `to`. */
  requestTimeMax(from: number, to: number): number;
  /** The highest per-second p99 of that time (ms) between `from` and `to`. */
  requestTimeP99(from: number, to: number): number;
  /** SIGTERM, then waits for a clean exit (SIGKILL after 15 s); resolves with the exit code. */
  stop(): Promise<number | null>;
}

export interface ServeChildOptions {
  logLevel?: "debug" | "info" | "warn";
  /** Write a V8 CPU profile (.cpuprofile) into this directory on exit. */
  cpuProfDir?: string;
  /** Another checkout whose `src/cli/main.ts` runs (the code before a change, side by side); SCANARR_BENCH_ROOT by default. */
  root?: string;
  /** More node flags (e.g. --trace-gc). */
  nodeFlags?: string[];
  /** More environment variables (e.g. MALLOC_ARENA_MAX). */
  env?: Record<string, string>;
  /**
   * Run `bin/scanarr.js` (dist/, see buildDist) as a user's install does,
   * rather than src/ through tsx, and without the loop-delay preload (its
   * figures read 0).
   */
  built?: boolean;
}

/** Builds `root`'s dist/ as a user's install has it (its own `npm run build`: a bundle, or tsc before). */
export function buildDist(root: string = repoRoot): void {
  execFileSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
}

/**
 * Runs the real `scanarr serve` from source in its own process, so the load
 * generator never shares its event loop. The log goes to a file rather than a
 * pipe: reading a pipe would cost the bench process CPU it needs for the load.
 */
export async function startServeChild(installDir: string, options: ServeChildOptions = {}): Promise<ServeChild> {
  const logFile = path.join(installDir, "serve.log");
  const fd = openSync(logFile, "a");
  const loopFile = path.join(installDir, "loop-delay.log");
  const nodeFlags = [
    ...(options.built ? [] : ["--import", pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), "loop-delay.mjs")).href]),
    ...(options.cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfDir}`] : []),
    ...(options.nodeFlags ?? []),
  ];
  const root = options.root ?? repoRoot;
  const args = (options.built ? serveBuiltArgs : serveFromSourceArgs)(root, installDir, { nodeFlags, logLevel: options.logLevel });
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...options.env, NO_COLOR: "1", SCANARR_BENCH_LOOP_FILE: loopFile },
    stdio: ["ignore", fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let running = true;
  void exited.then(() => (running = false));
  const stop = async () => {
    if (!running) return exited;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  onCleanup(async () => void (await stop()));
  const port = await waitForPort(child.pid ?? 0, logFile, () => running, 30_000);
  const loopSeconds = (from: number, to: number) => {
    const lines = existsSync(loopFile) ? readFileSync(loopFile, "utf8").trim().split("\n") : [];
    // A line covers the second before its time; every second that overlaps the span counts, so a
    // cold run's first second after the listen is in it (the second on a boundary counts on both sides).
    return lines.map((l) => l.split(" ").map(Number)).filter(([at = 0]) => at > from && at - 1_000 < to);
  };
  const loopDelayMax = (from: number, to: number) => Math.max(0, ...loopSeconds(from, to).map(([, max = 0]) => max));
  const loopDelayP99 = (from: number, to: number) => Math.max(0, ...loopSeconds(from, to).map(([, , p99 = 0]) => p99));
  const requestTimeMax = (from: number, to: number) => Math.max(0, ...loopSeconds(from, to).map(([, , , max = 0]) => max));
  const requestTimeP99 = (from: number, to: number) => Math.max(0, ...loopSeconds(from, to).map(([, , , , p99 = 0]) => p99));
  return { child, pid: child.pid ?? 0, port, logFile, loopDelayMax, loopDelayP99, requestTimeMax, requestTimeP99, stop };
}

/** The `"port":N` field of the "listening" log line, or the socket itself when the log level hides that line. */
async function waitForPort(pid: number, logFile: string, isRunning: () => boolean, timeoutMs: number): Promise<number> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const text = readFileSync(logFile, "utf8");
    const match = /"port":(\d+)/.exec(text);
    if (match) return Number(match[1]);
    if (!isRunning()) throw new Error(`serve exited before listening:\n${text}`);
    const port = findListeningPort(pid);
    if (port !== undefined) return port;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`serve did not start listening within ${timeoutMs} ms:\n${readFileSync(logFile, "utf8")}`);
}

/** Bytes the child has logged so far. */
export function logSize(child: ServeChild): number {
  return statSync(child.logFile).size;
}
