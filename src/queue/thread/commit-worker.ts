/**
 * The commit thread (commit-thread.ts): its own connection and its own
 * ScanQueue over it, the same writer as the main thread's, answering each
 * batch with its outcomes and the events its commit told. Never imported.
 */
import { parentPort, workerData } from "node:worker_threads";
import BetterSqlite3 from "better-sqlite3";
import { messageOf } from "../../lib/errors.js";
import { silentLogger } from "../../lib/logger.js";
import type { QueueEvent } from "../events.js";
import { ScanQueue } from "../scan-queue.js";
import { BUSY_MS, configure } from "../storage/database.js";
import { guardWal } from "../storage/wal-guard.js";
import type { FromThread, ThreadStart, ToThread } from "./commit-thread.js";

const port = parentPort;
if (!port) throw new Error("commit-worker.ts runs only as the commit thread");
const { file, settings } = workerData as ThreadStart;
const db = new BetterSqlite3(file, { timeout: BUSY_MS });
configure(db);
let now = 0;
const clock = { now: () => now, setTimeout: () => undefined, clearTimeout: () => undefined };
const queue = new ScanQueue({ ...settings, db, clock, logger: silentLogger(), recover: false });
let told: QueueEvent[] = [];
queue.subscribe((event) => told.push(event));
// The writer's own look at the WAL after its commits (storage/wal-guard.ts), here on this thread's connection
// once the answer is sent, so the main thread does not stop for a checkpoint the checkpoint thread was late for.
guardWal(db, file, queue, silentLogger());

const answer = (message: FromThread): void => port.postMessage(message);

port.on("message", (message: ToThread) => {
  if (message === "stop") {
    db.close();
    port.close();
    return;
  }
  now = message.now;
  told = [];
  try {
    const outcomes = queue.batch(() => message.requests.map((requests) => queue.enqueue(requests)));
    answer({ id: message.id, outcomes, events: told });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    answer({ id: message.id, error: { message: messageOf(error), ...(typeof code === "string" ? { code } : {}) } });
  }
});
answer({ ready: true });
