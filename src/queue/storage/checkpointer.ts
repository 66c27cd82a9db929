import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { Logger } from "../../lib/logger.js";
import type { CheckpointReport } from "./storage-watch.js";
import { WAL_LIMIT_BYTES, WAL_ROOM_SHARE, WAL_TRUNCATE_BYTES } from "./database.js";

export interface Checkpointer {
  /** Runs a checkpoint now that empties the WAL (space came back: a failed one need not wait for its backoff). */
  now(): void;
  stop(): Promise<void>;
}

/** startCheckpointerOnWrite's: the thread may also be started by the writer's first commit. */
export interface CheckpointerOnWrite extends Checkpointer {
  /** Starts the thread now if it is not running (the writer committed), without a checkpoint. */
  begin(): void;
}

export interface CheckpointerOptions {
  intervalMs?: number;
  /**
   * Above this many bytes of WAL file a checkpoint truncates the WAL to nothing; lower on a disk with
   * little room (a quarter of what the WAL and the free space make together).
   */
  truncateAboveBytes?: number;
  /** How often the WAL's size is looked at between checkpoints, so a burst is cut short (ten times as often past half its bound); 100 ms by default. */
  watchMs?: number;
  /** The longest wait between checkpoints that keep failing (disk full). */
  maxBackoffMs?: number;
  /** Each checkpoint's result (the storage watch listens). */
  onReport?: (report: CheckpointReport) => void;
}

// The worker is plain JavaScript given as source, so it runs the same from
// TypeScript sources (tests, tsx) and from the compiled build.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { statSync, statfsSync } = require("node:fs");
const { dirname } = require("node:path");
const Database = require(workerData.driver);
const { file, intervalMs, watchMs, truncateAboveBytes, roomShare, maxBackoffMs, walLimitBytes } = workerData;
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
const freeBytes = () => {
  try {
    const s = statfsSync(dirname(file));
    return s.bavail * s.bsize;
  } catch {
    return Infinity;
  }
};
// Every commit appends the pages it changed (a webhook's is about 10 of 1 KiB), and the WAL starts over
// only when a commit finds it all copied back: a burst between two checkpoints never does, and the
// disk, not the bound, is then the limit. So the WAL may take at most a quarter (1/roomShare) of the room
// it has; past twice that, the writer empties it itself (wal-guard.ts), for when this thread lags.
const boundOf = (wal) => Math.min(truncateAboveBytes, (wal + freeBytes()) / roomShare);
const overBound = () => {
  const wal = walBytes();
  return wal > boundOf(wal);
};
const walStamp = () => {
  try {
    const s = statSync(file + "-wal");
    return s.size + ":" + s.mtimeMs;
  } catch {
    return "";
  }
};
let failures = 0;
let timer;
let stopping = false;
let stamp = walStamp();
const run = (truncate, timed) => {
  clearTimeout(timer);
  // A timed checkpoint waits for the writes to pause: each copies every page written since the last
  // one, so one a second during a burst wrote the pages the burst keeps changing again and again.
  // The WAL's bound (the watch below) still empties it during the burst.
  const now = walStamp();
  const writing = timed && failures === 0 && now !== stamp;
  stamp = now;
  if (writing) {
    if (!stopping) timer = setTimeout(run, intervalMs, false, true);
    return;
  }
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
    // Over the bound, after a failure, or asked (space came back, or writes are refused): hand the WAL's bytes back to the disk.
    if (truncate || failures > 0 || overBound()) db.pragma("wal_checkpoint(TRUNCATE)");
    failures = 0;
    parentPort.postMessage({ ok: true, walBytes: walBytes() });
  } catch (error) {
    failures += 1;
    parentPort.postMessage({ ok: false, code: error && error.code, message: String((error && error.message) || error), walBytes: walBytes() });
  }
  stamp = walStamp();
  if (!stopping) timer = setTimeout(run, failures === 0 ? intervalMs : Math.min(maxBackoffMs, intervalMs * 2 ** failures), false, true);
};
timer = setTimeout(run, intervalMs, false, true);
// A stat and a statfs; a checkpoint only when the WAL is past its bound (not while failing ones back off).
// Past half of it, a burst can cross the rest before the next look: then it looks ten times as often.
let watch;
const look = () => {
  const wal = walBytes();
  const bound = boundOf(wal);
  if (failures === 0 && wal > bound) run(true);
  if (!stopping) watch = setTimeout(look, wal > bound / 2 ? watchMs / 10 : watchMs);
};
watch = setTimeout(look, watchMs);
parentPort.on("message", (message) => {
  if (message === "now") return run(true);
  stopping = true;
  clearTimeout(watch);
  run(false);
  db.close();
  parentPort.close();
});
`;

/**
 * Copies the WAL back into the database every `intervalMs` (once the writes
 * paused for that long: see the worker) from a worker
 * thread with its own connection. A PASSIVE checkpoint never blocks writers,
 * so the commits on the request path do not pay for it (with SQLite's
 * automatic checkpoint a commit now and then took 100–400 ms under load).
 * Under steady writes a PASSIVE checkpoint rarely catches the WAL empty, so
 * the WAL would never start over and would grow without end: past its bound
 * (`truncateAboveBytes`, or a quarter of the room the WAL has on its disk
 * when that is less; looked at every `watchMs`), and after a failed
 * checkpoint (disk full), a TRUNCATE checkpoint follows, which empties the
 * file. A failing checkpoint is tried again after 2, 4, 8… intervals (at most
 * `maxBackoffMs`), or at once, emptying the WAL, when asked (`now`: writes are
 * refused, or the database writes again after a full disk).
 */
export function startCheckpointer(file: string, logger: Logger, options: CheckpointerOptions = {}): Checkpointer {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const workerData = {
    file,
    driver,
    intervalMs: options.intervalMs ?? 1_000,
    watchMs: options.watchMs ?? 100,
    truncateAboveBytes: options.truncateAboveBytes ?? WAL_TRUNCATE_BYTES,
    maxBackoffMs: options.maxBackoffMs ?? 30_000,
    roomShare: WAL_ROOM_SHARE,
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
