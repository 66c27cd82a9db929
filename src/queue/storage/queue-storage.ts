import path from "node:path";
import type { Clock } from "../../lib/clock.js";
import { freeBytesOf } from "../../lib/free-bytes.js";
import type { Logger } from "../../lib/logger.js";
import type { QueueEvents } from "../events.js";
import type { CheckpointerOnWrite } from "./checkpointer.js";
import { startCheckpointerOnWrite } from "./checkpointer-on-write.js";
import { openServiceDatabase, probeWrite, shareDatabase, type Database, type ServiceDatabase } from "./database.js";
import { acquireInstanceLock } from "./instance-lock.js";
import { createSpaceReserve } from "./space-reserve.js";
import { createStorageWatch, type StorageWatch } from "./storage-watch.js";
import { guardWal } from "./wal-guard.js";

/** The writer as its storage needs it: its events (the WAL guard) and the recovery a full disk may put off. */
export interface StorageWriter extends QueueEvents {
  resumeInterrupted(): void;
}

export interface QueueStorageOptions {
  dataDir: string;
  /** The database file. */
  database: string;
  clock: Clock;
  logger: Logger;
}

/** serve's database for the life of the process: the file, whether it can write, and its care. */
export interface QueueStorage {
  db: Database;
  /** The database file. */
  file: string;
  /** Whether other connections may use the file now: not while serve holds it alone, started on a full disk. */
  shared(): boolean;
  /** Whether the database can write: 507s, held deliveries, recovery. */
  watch: StorageWatch;
  /**
   * Hands the one writer over (made on `db`): guards its WAL, and unless the
   * disk is full now, shares the database again and resumes the deliveries a
   * stop left claimed.
   */
  attach(writer: StorageWriter): void;
  /** Starts the checkpoint thread (at the first write to the WAL); on a full disk, once the database is shared again. */
  startCheckpointing(): void;
  /** Stops the watch and the checkpoints, closes the database, lets the instance lock go. */
  close(): Promise<void>;
}

/**
 * Opens serve's database: the instance lock before the file is touched (a
 * second serve must change nothing), then the file, also on a full disk or
 * held by another program (see openServiceDatabase). Started on a full disk,
 * the database stays this process's alone until a write works again; a probe
 * write, at `attach` and once a second while the disk is full, shares it
 * again and resumes the deliveries a stop left claimed.
 */
export function openQueueStorage(options: QueueStorageOptions): QueueStorage {
  const lock = acquireInstanceLock(options.dataDir);
  let opened: ServiceDatabase | undefined;
  try {
    opened = openServiceDatabase(options.database);
    return careFor(options, opened, lock.release);
  } catch (error) {
    if (opened?.db.open) opened.db.close();
    lock.release();
    throw error;
  }
}

function careFor(options: QueueStorageOptions, opened: ServiceDatabase, releaseLock: () => void): QueueStorage {
  const { database, logger } = options;
  const { db } = opened;
  let exclusive = opened.exclusive;
  let checkpointer: CheckpointerOnWrite | undefined;
  let writer: StorageWriter | undefined;
  let interruptedLeft = true;
  let unguardWal = () => {};
  let unwatchFirstCommit = () => {};
  // Made now while there is room; released the moment the disk fills (see space-reserve.ts).
  const reserve = createSpaceReserve(path.join(options.dataDir, "scanarr.reserve"));
  if (!exclusive) reserve.ensure();
  function probe(): void {
    if (exclusive) {
      shareDatabase(db);
      exclusive = false;
      checkpointer ??= startCheckpointing();
      logger.info({ database }, "the database is shared again: other scanarr commands can read it");
    }
    if (interruptedLeft && writer) {
      writer.resumeInterrupted();
      interruptedLeft = false;
    }
    // The resumption may have had nothing to write: a full disk is found now, not by the first webhook.
    probeWrite(db);
  }
  function startCheckpointing(): CheckpointerOnWrite {
    return startCheckpointerOnWrite(database, logger, { onReport: (report) => watch.checkpointed(report) });
  }
  const watch = createStorageWatch({
    database,
    clock: options.clock,
    logger,
    reserve,
    freeBytes: () => freeBytesOf(options.dataDir),
    probe,
    checkpointNow: () => checkpointer?.now(),
  });
  if (exclusive) {
    watch.report(opened.openError);
    logger.warn(
      { database },
      "started on a full disk: the queue is read and shown, but until the database writes again it is held by this serve alone " +
        "(other scanarr commands cannot read it), nothing is accepted and nothing is delivered",
    );
  }
  return {
    db,
    file: database,
    shared: () => !exclusive,
    watch,
    attach(w) {
      writer = w;
      unguardWal = guardWal(db, database, w, logger);
      // The checkpoint thread starts at the first commit, not a second later when its watch sees the WAL grow.
      unwatchFirstCommit = w.subscribe(() => {
        if (!checkpointer) return;
        unwatchFirstCommit();
        checkpointer.begin();
      });
      if (watch.problem() !== undefined) return;
      try {
        probe();
      } catch (error) {
        if (!watch.report(error)) throw error;
      }
    },
    startCheckpointing() {
      if (!exclusive) checkpointer ??= startCheckpointing();
    },
    async close() {
      watch.stop();
      unguardWal();
      unwatchFirstCommit();
      await checkpointer?.stop();
      if (db.open) db.close();
      releaseLock();
    },
  };
}
