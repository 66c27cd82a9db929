import { statSync } from "node:fs";
import path from "node:path";
import { messageOf } from "../../lib/errors.js";
import { freeBytesOf } from "../../lib/free-bytes.js";
import type { Logger } from "../../lib/logger.js";
import { WAL_ROOM_SHARE, WAL_TRUNCATE_BYTES, type Database } from "./database.js";
import type { QueueEvents } from "../events.js";

/** The longest the writer's own checkpoint waits for a reader or another writer. */
const GUARD_BUSY_MS = 250;

/**
 * The WAL's bound when the checkpoint thread lags. That thread empties the
 * WAL once it passes a quarter of its room (see checkpointer.ts), but on a
 * busy machine it can be held off the CPU for most of a second, and a burst
 * of commits on a small disk writes megabytes in that time. So after each
 * commit that told something (at most once a turn of the event loop) the
 * writer looks at the WAL itself (a stat and a statfs), and past twice that
 * bound it empties it on its own connection: a few milliseconds on the
 * request path, instead of a disk the WAL filled.
 */
export function guardWal(db: Database, file: string, events: QueueEvents, logger: Logger): () => void {
  const wal = `${file}-wal`;
  const dir = path.dirname(file);
  let looking = false;
  let lastError = "";
  // After a failed try (a reader in another program holds its snapshot), the next waits until the
  // WAL has grown by another bound: each try may hold the request path for GUARD_BUSY_MS.
  let failedAtBytes = 0;
  const look = () => {
    looking = false;
    if (!db.open || db.inTransaction) return;
    const walBytes = sizeOf(wal);
    const bound = Math.min(WAL_TRUNCATE_BYTES, (walBytes + freeBytesOf(dir)) / WAL_ROOM_SHARE);
    if (walBytes <= 1.5 * bound || walBytes <= failedAtBytes + bound) return;
    // A reader in another program (`scanarr status`) would hold a TRUNCATE for the whole 5 s busy
    // timeout, on the request path: it waits as briefly as the thread's does, then settles for less.
    const busyMs = db.pragma("busy_timeout", { simple: true }) as number;
    db.pragma(`busy_timeout = ${GUARD_BUSY_MS}`);
    try {
      const [result] = db.pragma("wal_checkpoint(TRUNCATE)") as Array<{ busy: number }>;
      failedAtBytes = result?.busy ? walBytes : 0;
      lastError = "";
    } catch (error) {
      failedAtBytes = walBytes;
      // The checkpoint thread and the storage watch hear of a full disk on their own.
      if (messageOf(error) !== lastError) logger.debug({ err: error, database: file }, "the writer's own WAL checkpoint failed");
      lastError = messageOf(error);
    } finally {
      db.pragma(`busy_timeout = ${busyMs}`);
    }
  };
  return events.subscribe(() => {
    if (looking) return;
    looking = true;
    queueMicrotask(look);
  });
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
