import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { EnqueueOutcome, ScanRequest } from "../../domain.js";
import type { Logger } from "../../lib/logger.js";
import type { QueueEvent } from "../events.js";
import type { RemoteWriter } from "../group-commit.js";
import type { ScanQueueOptions } from "../scan-queue-options.js";

/** What the thread's own ScanQueue is made with besides its connection: plain data, copied to it. */
export type WriterSettings = Pick<ScanQueueOptions, "targets" | "delayMs" | "maxWaitMs" | "priorities" | "fileChecks">;

/** The thread's workerData. */
export interface ThreadStart {
  file: string;
  settings: WriterSettings;
}

/** To the thread: a batch (each request list one enqueue, all in one transaction, at `now`), or the end. */
export type ToThread = { id: number; now: number; requests: ScanRequest[][] } | "stop";

/** From the thread: ready, or a batch's answer (its outcomes and the events its commit told), or why it failed. */
export type FromThread =
  | { ready: true }
  | { id: number; outcomes: EnqueueOutcome[]; events: QueueEvent[] }
  | { id: number; error: { message: string; code?: string } };

export interface CommitThreadOptions {
  /** False: it never starts, and every batch is written on the main thread (serve on one CPU). */
  enabled?: boolean;
  /** The database file. */
  file: string;
  settings: WriterSettings;
  /** Tells the events of the thread's commits to this side's listeners (ScanQueue.retell). */
  retell: (events: QueueEvent[]) => void;
  /** Whether a second connection may write the file now: not while serve holds it alone (started on a full disk). */
  canShare: () => boolean;
  /** The queue's clock: every batch is written at this side's time. */
  now: () => number;
  logger: Logger;
  /** The thread starts once this many requests came within `withinMs` (64 in 1 s by default). */
  burst?: { requests: number; withinMs: number };
  /** And stops again after this long without a batch (5 minutes by default), giving its memory back. */
  idleStopMs?: number;
  /** The most requests a batch sent to the thread holds (16 by default; see RemoteWriter). */
  batchSize?: number;
}

export interface CommitThread extends RemoteWriter {
  /** Answers the batches sent, then ends the thread. */
  stop(): Promise<void>;
}

interface Pending {
  thread: Worker;
  resolve: (outcomes: EnqueueOutcome[]) => void;
  reject: (error: unknown) => void;
}

/**
 * The group commit's writes (coalescing included) on a thread of their own,
 * with its own connection to the database: under a burst of webhooks the main
 * thread parses the next requests while the last batch commits. A batch's
 * callers are answered, and its events told here, only after the thread's
 * commit, so a 2xx still means "on disk". The thread costs memory (a V8 heap
 * of its own), so it starts only once requests come fast (`burst`) and stops
 * after `idleStopMs` without any; until it is ready, and after it stopped or
 * failed, the batches are written on this thread as before.
 */
export function createCommitThread(options: CommitThreadOptions): CommitThread {
  const burst = options.burst ?? { requests: 64, withinMs: 1_000 };
  const idleStopMs = options.idleStopMs ?? 5 * 60_000;
  const { logger } = options;
  const pending = new Map<number, Pending>();
  /** Threads still running, a stopped one until it finished what it was sent. */
  const exits = new Set<Promise<void>>();
  let worker: Worker | undefined;
  let ready = false;
  let failed = false;
  let stopped = options.enabled === false;
  let windowStart = Number.NEGATIVE_INFINITY;
  let windowCount = 0;
  let lastWrite = 0;
  let nextId = 1;
  let idleWatch: NodeJS.Timeout | undefined;

  const start = (): void => {
    windowCount = 0;
    let thread: Worker;
    try {
      thread = spawn({ file: options.file, settings: options.settings });
    } catch (error) {
      // Never thrown into the group commit, whose batch is being written here.
      failed = true;
      logger.error({ err: error }, "the commit thread could not start; requests are committed on the main thread");
      return;
    }
    worker = thread;
    const exited = new Promise<void>((resolve) => thread.once("exit", () => resolve()));
    exits.add(exited);
    thread.unref();
    thread.on("message", (message: FromThread) => {
      if ("ready" in message) {
        if (worker !== thread || stopped) return;
        ready = true;
        lastWrite = performance.now();
        idleWatch = setInterval(stopWhenIdle, Math.min(idleStopMs, 60_000));
        idleWatch.unref();
        logger.info("commit thread started: requests come fast, so they are committed on a thread beside the main one");
        return;
      }
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (!waiting) return;
      if ("error" in message) waiting.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
      else {
        options.retell(message.events);
        waiting.resolve(message.outcomes);
      }
    });
    thread.on("error", (error) => {
      failed = true;
      logger.error({ err: error }, "the commit thread failed; requests are committed on the main thread from now on");
    });
    thread.on("exit", () => {
      exits.delete(exited);
      if (worker === thread) leave();
      // Only a thread that failed leaves batches unanswered; whether they were committed is not known.
      for (const [id, waiting] of pending) {
        if (waiting.thread !== thread) continue;
        pending.delete(id);
        waiting.reject(new Error("the commit thread stopped before it answered"));
      }
    });
  };

  /** No thread takes batches from now on; the one that did is returned. */
  const leave = (): Worker | undefined => {
    const thread = worker;
    worker = undefined;
    ready = false;
    clearInterval(idleWatch);
    return thread;
  };

  /** Ends the thread once it answered what it was sent; a burst may start the next one meanwhile. */
  const end = (): Promise<void> => {
    const thread = leave();
    if (thread) {
      // Held while it finishes: an unreferenced thread would let the process end mid-stop.
      thread.ref();
      thread.postMessage("stop" satisfies ToThread);
    }
    return Promise.all(exits).then(() => undefined);
  };

  function stopWhenIdle(): void {
    if (!ready || pending.size > 0 || performance.now() - lastWrite < idleStopMs) return;
    logger.debug(`commit thread stopped: no request for ${idleStopMs / 1000} s`);
    void end();
  }

  return {
    batchSize: options.batchSize ?? 16,
    ready: () => ready,
    wrote(count) {
      if (worker || failed || stopped || !options.canShare()) return;
      const at = performance.now();
      if (at - windowStart > burst.withinMs) {
        windowStart = at;
        windowCount = 0;
      }
      windowCount += count;
      if (windowCount >= burst.requests) start();
    },
    write(requests) {
      const thread = worker;
      if (!ready || !thread) return Promise.reject(new Error("the commit thread is not running"));
      lastWrite = performance.now();
      const id = nextId++;
      return new Promise<EnqueueOutcome[]>((resolve, reject) => {
        pending.set(id, { thread, resolve, reject });
        thread.postMessage({ id, now: options.now(), requests } satisfies ToThread);
      });
    },
    stop() {
      stopped = true;
      return end();
    },
  };
}

/**
 * The built package runs commit-worker.js beside the bundle (contrib/build.mjs);
 * from the TypeScript sources (tests, tsx) the thread first registers tsx's
 * loader, which a thread does not inherit, then loads commit-worker.ts.
 */
function spawn(workerData: ThreadStart): Worker {
  const here = import.meta.url;
  if (!here.endsWith(".ts")) return new Worker(new URL("./commit-worker.js", here), { workerData });
  const tsx = pathToFileURL(
    createRequire(here)
      .resolve("tsx/esm/api")
      .replace(/\.cjs$/, ".mjs"),
  ).href;
  const entry = new URL("./commit-worker.ts", here).href;
  const source = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(source, { eval: true, workerData });
}
