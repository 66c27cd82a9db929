import type { ScannerCommand, ScannerMode } from "./scanner-command.js";

/** Why a scanner run did not end with the scanner's own exit code 0. */
export type ScannerFailureKind =
  | "missing-executable"
  | "missing-container"
  | "missing-user"
  | "not-permitted"
  | "timed-out"
  | "killed"
  | "canceled"
  | "scanner-exit";

export interface ScannerRun {
  /** The scanner's exit code, or 1 when it never ran or was stopped (130 when canceled). */
  exitCode: number;
  failure?: { kind: ScannerFailureKind; message: string };
}

export interface RunScannerOptions {
  /** The environment the child starts from (PATH included); scanarr's own is never read here. */
  env: NodeJS.ProcessEnv;
  /** 0 for no limit. */
  timeoutMs: number;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** "inherit" lets sudo ask for a password on the terminal. */
  stdin?: "inherit" | "ignore";
  signal?: AbortSignal;
  mode: ScannerMode;
}

const TAIL_LIMIT = 4096;
/** Between SIGTERM to the scanner's process group and SIGKILL. */
export const KILL_GRACE_MS = 5_000;

/**
 * Runs the command without a shell, streaming its output, and says how it
 * ended. The scanner runs in a process group of its own, and a timeout or an
 * abort stops the whole group: a child the scanner started (and that holds
 * its output open) must not keep the run, or the service's scanner slot,
 * waiting. Only sudo asking for a password on the terminal keeps the
 * scanner in our group, since a new session has no terminal; Ctrl-C reaches
 * that whole group from the terminal anyway.
 */
export async function runScanner(command: ScannerCommand, options: RunScannerOptions): Promise<ScannerRun> {
  // Loaded on the first run: only the scanner method pays for the process runner.
  const { execa } = await import("execa");
  const stdin = options.stdin ?? "ignore";
  const child = execa(command.file, command.args, {
    env: { ...options.env, ...command.env },
    extendEnv: false,
    stdin,
    stdout: "pipe",
    stderr: "pipe",
    buffer: false,
    reject: false,
    detached: stdin !== "inherit",
  });
  const stopper = stopOnTimeoutOrAbort(child.pid, stdin !== "inherit", options);
  let tail = "";
  child.stdout?.on("data", (chunk: Buffer) => options.stdout.write(chunk));
  child.stderr?.on("data", (chunk: Buffer) => {
    options.stderr.write(chunk);
    tail = (tail + chunk.toString("utf8")).slice(-TAIL_LIMIT);
  });
  const result = await child.finally(stopper.done);
  // Ctrl-C reaches a scanner in our own process group too, so it may die of SIGINT before our abort lands.
  if (stopper.reason() === "canceled" || options.signal?.aborted || result.signal === "SIGINT") {
    return failed(130, "canceled", "the scan was interrupted");
  }
  if (stopper.reason() === "timed-out") {
    const where = options.mode.kind === "docker" ? " (the scanner may still run inside the container)" : "";
    return failed(1, "timed-out", `the scanner did not finish within ${options.timeoutMs / 1000} s and was stopped${where}`);
  }
  if (result.code === "ENOENT") return failed(1, "missing-executable", `${command.file} was not found (is it installed and on PATH?)`);
  if (result.code === "EACCES") return failed(1, "missing-executable", `${command.file} is not executable by this user`);
  if (result.exitCode === undefined) {
    return failed(1, "killed", `the scanner was stopped by ${result.signal ?? "a signal"}`);
  }
  if (result.exitCode === 0) return { exitCode: 0 };
  return classifyExit(result.exitCode, tail, command, options.mode);
}

// Docker and sudo report their own problems with an exit code of their own; their
// messages are stable enough to tell "no such container" from a scanner failure.
function classifyExit(code: number, tail: string, command: ScannerCommand, mode: ScannerMode): ScannerRun {
  if (mode.kind === "docker") {
    if (/No such container|is not running|is paused|is restarting/i.test(tail)) {
      return failed(1, "missing-container", `container ${mode.container} is missing or not running`);
    }
    if (/unable to find user|no matching entries in passwd/i.test(tail)) {
      return failed(1, "missing-user", `user ${mode.user} does not exist in container ${mode.container}`);
    }
    if (/permission denied.*docker/i.test(tail)) {
      return failed(1, "not-permitted", "this user may not talk to the Docker daemon (add it to the docker group)");
    }
  }
  if (mode.kind === "sudo") {
    if (/unknown user/i.test(tail)) return failed(1, "missing-user", `user ${mode.user} does not exist`);
    if (/password is required|is not in the sudoers|not allowed to execute/i.test(tail)) {
      return failed(1, "not-permitted", `sudo refused to run the scanner as ${mode.user}`);
    }
  }
  const scanner = mode.kind === "direct" ? command.file : scannerOf(command);
  if (code === 127 || (code === 126 && mode.kind === "docker")) {
    return failed(1, "missing-executable", `${scanner} was not found or cannot run ${whereOf(mode)}`);
  }
  if (code === 126) return failed(1, "missing-executable", `${scanner} cannot be executed ${whereOf(mode)}`);
  return failed(code, "scanner-exit", `the scanner exited with code ${code}`);
}

// The scanner's own path stands right before its first action flag, whatever wraps it.
const ACTIONS = new Set(["--scan", "--analyze", "--analyze-deeply"]);

function scannerOf(command: ScannerCommand): string {
  const at = command.args.findIndex((arg) => ACTIONS.has(arg));
  return at > 0 ? (command.args[at - 1] ?? command.file) : command.file;
}

function whereOf(mode: ScannerMode): string {
  if (mode.kind === "docker") return `inside container ${mode.container}`;
  if (mode.kind === "sudo") return `as user ${mode.user}`;
  return "on this machine";
}

function failed(exitCode: number, kind: ScannerFailureKind, message: string): ScannerRun {
  return { exitCode, failure: { kind, message } };
}

type StopReason = "timed-out" | "canceled";

/**
 * Arms the timeout and the abort signal. Either sends SIGTERM to the
 * scanner's process group (or to the scanner alone when it shares ours),
 * then SIGKILL after KILL_GRACE_MS. An exit of scanarr itself kills the group
 * too, so a forced second Ctrl-C leaves nothing running.
 */
function stopOnTimeoutOrAbort(
  pid: number | undefined,
  ownGroup: boolean,
  options: Pick<RunScannerOptions, "timeoutMs" | "signal">,
): { reason(): StopReason | undefined; done(): void } {
  let reason: StopReason | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  const target = pid === undefined ? undefined : ownGroup ? -pid : pid;
  const signal = (name: NodeJS.Signals) => {
    if (target === undefined) return;
    try {
      process.kill(target, name);
    } catch {
      // Already gone.
    }
  };
  const stop = (why: StopReason) => {
    if (reason !== undefined) return;
    reason = why;
    signal("SIGTERM");
    killTimer = setTimeout(() => signal("SIGKILL"), KILL_GRACE_MS);
  };
  const timer = options.timeoutMs > 0 ? setTimeout(() => stop("timed-out"), options.timeoutMs) : undefined;
  const onAbort = () => stop("canceled");
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  const onExit = () => signal("SIGKILL");
  if (ownGroup) process.once("exit", onExit);
  return {
    reason: () => reason,
    done() {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      process.off("exit", onExit);
      clearTimeout(killTimer);
      // A child that closed its output may outlive a stopped scanner: nothing of a stopped run stays behind.
      if (reason !== undefined) signal("SIGKILL");
    },
  };
}
