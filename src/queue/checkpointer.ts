import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { Logger } from "../lib/logger.js";
import type { CheckpointReport } from "./storage-watch.js";
import { WAL_LIMIT_BYTES, WAL_TRUNCATE_BYTES } from "./database.js";

export interface Checkpointer {
  /** Runs a checkpoint now that empties the WAL (space came back: a failed one need not wait for its backoff). */
  now(): void;
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  intervalMs?: number;
  /** Above this many bytes of WAL file a checkpoint truncates the WAL to nothing. */
  truncateAboveBytes?: number;
  /** The longest wait between checkpoints that keep failing (disk full). */
  maxBackoffMs?: number;
  /** Each checkpoint's result (the storage watch listens). */
  onReport?: (report: CheckpointReport) => void;
}

// The worker is plain JavaScript given as source, so it runs the same from
// TypeScript sources (tests, tsx) and from the compiled build.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { statSync } = require("node:fs");
const Database = require(workerData.driver);
const { file, intervalMs, truncateAboveBytes, maxBackoffMs, walLimitBytes } = workerData;
const db = new Database(file);
// A TRUNCATE checkpoint holds the write lock while it waits for readers: it waits briefly, then
// settles for what a PASSIVE one does (and answers busy), so the commits on the request path never wait long.
db.pragma("busy_timeout = 250");
db.pragma("journal_size_limit = " + walLimitBytes);
const walBytes = () => {
  try {
    return statSync(file + "-wal").size;
  } catch {
    return 0;
  }
};
let failures = 0;
let timer;
let stopping = false;
const run = (truncate) => {
  clearTimeout(timer);
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
    // Over the bound, after a failure, or asked (space came back): hand the WAL's bytes back to the disk.
    if (truncate || failures > 0 || walBytes() > truncateAboveBytes) db.pragma("wal_checkpoint(TRUNCATE)");
    failures = 0;
    parentPort.postMessage({ ok: true, walBytes: walBytes() });
  } catch (error) {
    failures += 1;
    parentPort.postMessage({ ok: false, code: error && error.code, message: String((error && error.message) || error), walBytes: walBytes() });
  }
  if (!stopping) timer = setTimeout(run, failures === 0 ? intervalMs : Math.min(maxBackoffMs, intervalMs * 2 ** failures), false);
};
timer = setTimeout(run, intervalMs, false);
parentPort.on("message", (message) => {
  if (message === "now") return run(true);
  stopping = true;
  run(false);
  db.close();
  parentPort.close();
});
`;

/**
 * Copies the WAL back into the database every `intervalMs` from a worker
 * thread with its own connection. A PASSIVE checkpoint never blocks writers,
 * so the commits on the request path do not pay for it (with SQLite's
 * automatic checkpoint a commit now and then took 100–400 ms under load).
 * Under steady writes a PASSIVE checkpoint rarely catches the WAL empty, so
 * the WAL would never start over and would grow without end: past
 * `truncateAboveBytes`, and after a failed checkpoint (disk full), a
 * TRUNCATE checkpoint follows, which empties the file. A failing checkpoint is
 * tried again after 2, 4, 8… intervals (at most `maxBackoffMs`), or at once,
 * emptying the WAL, when asked (`now`: the database writes again after a full
 * disk).
 */
export function startCheckpointer(file: string, logger: Logger, options: CheckpointerOptions = {}): Checkpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const workerData = {
    file,
    driver,
    intervalMs: options.intervalMs ?? 1_000,
    truncateAboveBytes: options.truncateAboveBytes ?? WAL_TRUNCATE_BYTES,
    maxBackoffMs: options.maxBackoffMs ?? 30_000,
    walLimitBytes: WAL_LIMIT_BYTES,
  };
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
  let lastError = "";
  worker.on("message", (report: CheckpointReport) => {
    if (options.onReport) options.onReport(report);
    else if (!report.ok && report.message !== lastError) logger.warn({ database: file, error: report.message }, "WAL checkpoint failed");
    lastError = report.ok ? "" : report.message;
  });
  worker.on("error", (error) => logger.error({ err: error, database: file }, "the checkpoint thread stopped"));
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  let stopped = false;
  return {
    now() {
      if (!stopped) worker.postMessage("now");
    },
    async stop() {
      stopped = true;
      // Held while it finishes: an unreferenced worker would let the process end mid-stop.
      worker.ref();
      worker.postMessage("stop");
      await exited;
    },
  };
}
