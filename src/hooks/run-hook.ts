import { systemClock, type Clock } from "../lib/clock.js";
import type { HookCommand } from "./hook-command.js";

/** How a hook run ended; never thrown, always returned for the log. */
export interface HookResult {
  /** Exit code 0 within the time limit. */
  ok: boolean;
  exitCode: number | null;
  /** The signal that ended it (SIGTERM/SIGKILL after a time-out). */
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** The last lines it wrote, stdout and stderr together, each cut to LINE_LIMIT characters. */
  lastLines: string[];
  /** The last lines it wrote to stderr alone, cut the same way. */
  stderrLines: string[];
  /** How it ended: exit 0, another exit code, stopped (time-out, shutdown), never started, or killed by a signal. */
  ended: "ok" | "exit-code" | "time-out" | "shutdown" | "not-found" | "not-executable" | "signal";
  /** Why it did not run or did not finish, in words. */
  error?: string;
}

export interface RunHookOptions {
  /** The environment the hook starts from (PATH, HOME…); scanarr's own is never read here. */
  baseEnv: NodeJS.ProcessEnv;
  /** The facts (hookEnvironment), added on top of `baseEnv`. */
  env: Record<string, string>;
  /** RUN_COMMAND_TIMEOUT in ms: the whole process group is stopped when it is exceeded. */
  timeoutMs: number;
  /** The config key of the time limit, for the message; RUN_COMMAND_TIMEOUT by default. */
  timeoutKey?: string;
  /** Between SIGTERM and SIGKILL to the group. Defaults to 5 s. */
  killGraceMs?: number;
  cwd?: string;
  clock?: Clock;
  /** Aborting it (service shutdown) stops the hook's process group as a time-out would. */
  signal?: AbortSignal;
}

const KEEP_LINES = 10;
const LINE_LIMIT = 500;

/**
 * Runs a hook in a process group of its own, with no shell of ours (a string
 * hook is `/bin/sh -c` with the user's own string). When the time limit
 * passes, SIGTERM then SIGKILL go to the whole group, so a `sleep` or a
 * pipeline the hook started dies with it. Never throws: a hook that is
 * missing, fails or hangs is reported, and the scan goes on.
 */
export async function runHook(command: HookCommand, options: RunHookOptions): Promise<HookResult> {
  // Loaded on the first run: a service without hooks never pays for the process runner.
  const { execa } = await import("execa");
  const clock = options.clock ?? systemClock;
  const started = Date.now();
  const tail = createTail();
  const stderrTail = createTail();
  const child = execa(command.file, command.args, {
    env: { ...options.baseEnv, ...options.env },
    extendEnv: false,
    cwd: options.cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    buffer: false,
    reject: false,
    detached: true,
  });
  child.stdout?.on("data", tail.write);
  child.stderr?.on("data", (chunk: Buffer) => {
    tail.write(chunk);
    stderrTail.write(chunk);
  });
  let stoppedBy: "time-out" | "shutdown" | undefined;
  let killTimer: unknown;
  const stop = (why: "time-out" | "shutdown"): void => {
    if (stoppedBy) return;
    stoppedBy = why;
    signalGroup(child.pid, "SIGTERM");
    killTimer = clock.setTimeout(() => signalGroup(child.pid, "SIGKILL"), options.killGraceMs ?? 5_000);
  };
  const timer = clock.setTimeout(() => stop("time-out"), options.timeoutMs);
  const onAbort = (): void => stop("shutdown");
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const result = await child;
  options.signal?.removeEventListener("abort", onAbort);
  clock.clearTimeout(timer);
  if (killTimer !== undefined) clock.clearTimeout(killTimer);
  const timedOut = stoppedBy === "time-out";
  const base = {
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    timedOut,
    durationMs: Date.now() - started,
    lastLines: tail.lines(),
    stderrLines: stderrTail.lines(),
  };
  const failed = (ended: HookResult["ended"], error: string): HookResult => ({ ...base, ok: false, ended, error });
  if (timedOut)
    return failed("time-out", `stopped after ${Math.round(options.timeoutMs / 1000)} s (${options.timeoutKey ?? "RUN_COMMAND_TIMEOUT"})`);
  if (stoppedBy === "shutdown") return failed("shutdown", "stopped: scanarr is shutting down");
  if (result.code === "ENOENT") return failed("not-found", `${command.file} was not found`);
  if (result.code === "EACCES") return failed("not-executable", `${command.file} is not executable by this user`);
  if (result.exitCode === undefined) return failed("signal", `ended by ${result.signal ?? "a signal"}`);
  if (result.exitCode !== 0) return failed("exit-code", `exited with code ${result.exitCode}`);
  return { ...base, ok: true, ended: "ok" };
}

/** The negative pid names the process group the detached child leads. */
function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

function createTail(): { write: (chunk: Buffer) => void; lines: () => string[] } {
  const kept: string[] = [];
  let pending = "";
  const push = (line: string): void => {
    if (line.trim() === "") return;
    kept.push(line.length > LINE_LIMIT ? `${line.slice(0, LINE_LIMIT)}…` : line);
    if (kept.length > KEEP_LINES) kept.shift();
  };
  return {
    write(chunk) {
      const parts = (pending + chunk.toString("utf8")).split(/\r?\n/);
      pending = (parts.pop() ?? "").slice(-LINE_LIMIT * 4);
      for (const line of parts) push(line);
    },
    lines: () => {
      const out = [...kept];
      if (pending.trim() !== "") out.push(pending.length > LINE_LIMIT ? `${pending.slice(0, LINE_LIMIT)}…` : pending);
      return out.slice(-KEEP_LINES);
    },
  };
}
