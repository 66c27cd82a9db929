import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";

/** What the child found at a path. */
export type ProbeState = "file" | "folder" | "empty-folder" | "missing" | "timeout";

export interface WorkerReply {
  id: number;
  state: Exclude<ProbeState, "timeout">;
  error?: string;
}

/** One running probe child; killed and replaced by the probe when a check hangs. */
export interface ProbeWorker {
  readonly pid: number | undefined;
  send(checks: Array<{ id: number; path: string }>): void;
  /** Keeps the service alive while answers are awaited, and only then. */
  setWaiting(waiting: boolean): void;
  kill(): void;
}

export interface WorkerEvents {
  onReplies(worker: ProbeWorker, replies: WorkerReply[]): void;
  /** The child ended; `expected` is false when the probe did not kill it. */
  onExit(worker: ProbeWorker, expected: boolean, why: string): void;
}

// Resolves to src/mount/probe-child.js under tsx and to dist/cli/probe-child.js in the bundle (contrib/build.mjs copies it).
const CHILD_SCRIPT = fileURLToPath(new URL("./probe-child.js", import.meta.url));

/**
 * Starts the child with bare node (no loader, no inherited NODE_OPTIONS) and a
 * libuv threadpool as large as the checks it may run at once, so a check never
 * queues behind a stat stuck on another mount inside the child.
 */
export function startProbeWorker(threads: number, events: WorkerEvents): ProbeWorker {
  const child: ChildProcess = fork(CHILD_SCRIPT, [], {
    execPath: process.execPath,
    execArgv: [],
    env: { UV_THREADPOOL_SIZE: String(threads) },
    stdio: ["ignore", "ignore", "ignore", "ipc"],
    serialization: "json",
  });
  let killed = false;
  let ended = false;
  child.unref();
  child.channel?.unref();
  const worker: ProbeWorker = {
    pid: child.pid,
    send(checks) {
      if (!ended && child.connected) child.send({ checks });
    },
    setWaiting(waiting) {
      if (waiting) child.channel?.ref();
      else child.channel?.unref();
    },
    kill() {
      killed = true;
      child.channel?.unref();
      // SIGKILL: a thread waiting on a FUSE request only wakes for a fatal signal.
      child.kill("SIGKILL");
    },
  };
  const end = (why: string): void => {
    if (ended) return;
    ended = true;
    events.onExit(worker, killed, why);
  };
  child.on("message", (message: { replies?: WorkerReply[] }) => {
    if (!ended && !killed && Array.isArray(message.replies)) events.onReplies(worker, message.replies);
  });
  child.on("error", (error) => end(`the probe process failed: ${error.message}`));
  child.on("exit", (code, signal) => end(`the probe process ended (${signal ?? `exit code ${code}`})`));
  return worker;
}
