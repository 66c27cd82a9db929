import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { UserError } from "../../domain.js";
import { lockHolders } from "./lock-holders.js";
import { migrateQueue } from "./migrate.js";
import { storageTroubleOf } from "./storage-errors.js";
import { messageOf } from "../../lib/errors.js";

export type { Database };

/** The page size of a new database file. */
export const PAGE_BYTES = 1024;
/** What a WAL file is cut back to when SQLite starts it over (PRAGMA journal_size_limit). */
export const WAL_LIMIT_BYTES = 1024 * 1024;
/**
 * Past this size the checkpoint thread empties the WAL (a TRUNCATE checkpoint); past twice
 * this the writer does it itself (wal-guard.ts). The WAL is to stay under 4 MiB: a burst of
 * new-file webhooks writes about 5 MiB a second, and the thread looks every 10 ms past half.
 */
export const WAL_TRUNCATE_BYTES = 2 * 1024 * 1024;
/** On a disk with little room, past 1/WAL_ROOM_SHARE of it (the WAL's size plus the free space) already. */
export const WAL_ROOM_SHARE = 4;

/** How long a second program's write lock is waited for at start before serve gives up and says who holds it. */
const START_BUSY_MS = 1_000;
/** Another process (a second `scanarr` command) may hold the write lock briefly. */
export const BUSY_MS = 5_000;

/**
 * Opens (creating if needed) the service database and brings the queue tables
 * up to date. The handle is shared: other modules add their own tables.
 *
 * WAL with synchronous=NORMAL: a committed transaction is in the WAL, handed
 * to the OS, before the commit returns, so killing the process (kill -9, OOM)
 * at any moment loses nothing acknowledged. What it does not survive is a
 * power cut or kernel crash right after a commit: the last transactions may
 * roll back (the file stays consistent). FULL would fsync every commit and
 * cost most of the ingest rate for that rare case.
 *
 * The files hold library paths and the drive's change tokens: the folder is
 * 0700 and the database 0600 (SQLite gives its -wal and -shm files the
 * database's mode). Automatic checkpoints are off: they would run inside a
 * commit on the request path; `startCheckpointer` runs them on its own thread.
 */
export function openDatabase(file: string): Database {
  let db: Database | undefined;
  try {
    ensurePrivateDir(path.dirname(path.resolve(file)));
    ensurePrivateFile(file);
    db = new BetterSqlite3(file, { timeout: BUSY_MS });
    configure(db);
    migrateQueue(db);
  } catch (error) {
    db?.close();
    throw new Error(`cannot open the database ${file}: ${messageOf(error)}`);
  }
  return db;
}

export interface ServiceDatabase {
  db: Database;
  /**
   * Opened holding the file to itself, because the disk is too full for the
   * -shm file other connections share (see openServiceDatabase); `share`
   * undoes it once space is back.
   */
  exclusive: boolean;
  /** Why the normal open failed, when `exclusive`. */
  openError?: unknown;
}

/**
 * `openDatabase` for `serve`, which must start on a full disk and must not
 * wait 5 s on a database another program holds.
 *
 * In WAL mode every connection maps the `-shm` file; a clean stop deletes it,
 * and making it again needs 32 KiB the full disk does not have (SQLite then
 * says "disk I/O error", SQLITE_IOERR_SHMSIZE). The database is then opened
 * in EXCLUSIVE locking mode, where SQLite keeps that index in memory: reading
 * the queue needs no space at all. Other programs cannot read the file until
 * `shareDatabase` turns it back, once a write works again.
 *
 * Every migration already applied writes nothing; a pending one needs space
 * and fails the start with the disk named. A write lock held by another
 * program is waited for only briefly, then the error names the file and the
 * holder.
 */
export function openServiceDatabase(file: string): ServiceDatabase {
  try {
    return { db: openChecked(file, false), exclusive: false };
  } catch (error) {
    if (storageTroubleOf(error) === undefined || !existsSync(file)) throw failure(file, error);
    try {
      return { db: openChecked(file, true), exclusive: true, openError: error };
    } catch (second) {
      throw failure(file, second);
    }
  }
}

function openChecked(file: string, exclusive: boolean): Database {
  let db: Database | undefined;
  try {
    ensurePrivateDir(path.dirname(path.resolve(file)));
    ensurePrivateFile(file);
    db = new BetterSqlite3(file, { timeout: START_BUSY_MS });
    if (exclusive) db.pragma("locking_mode = EXCLUSIVE");
    configure(db);
    migrateQueue(db);
    // Takes the write lock and lets it go at once: a program holding it (an open edit in a
    // database browser) is found now, not by the first write 5 s later. It needs no space.
    db.exec("BEGIN IMMEDIATE; ROLLBACK");
    db.pragma(`busy_timeout = ${BUSY_MS}`);
    return db;
  } catch (error) {
    db?.close();
    throw error;
  }
}

/** The pragmas every connection of serve's sets (journal, durability, checkpoints); the commit thread's too. */
export function configure(db: Database): void {
  // Every commit writes each page it changed whole, to the WAL and again at the checkpoint, and
  // a webhook changes a row or two in each of about ten B-trees: at 1 KiB a page that costs a
  // quarter of SQLite's default 4 KiB. It takes effect only in a new file (before its first
  // write); an existing one keeps the size it was made with.
  db.pragma(`page_size = ${PAGE_BYTES}`);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("wal_autocheckpoint = 0");
  // When the WAL starts over it is cut back to this size, so what a burst (or a full disk that
  // kept checkpoints from finishing) made it grow to is given back to the disk.
  db.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`);
}

function failure(file: string, error: unknown): Error {
  const code = (error as { code?: string }).code;
  if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") {
    const holders = lockHolders([file, `${file}-wal`, `${file}-shm`]);
    const who = holders.length > 0 ? `${holders.join(", ")} holds it` : "another program holds it";
    return new UserError(
      `cannot open the database ${file}: it is locked (${who}). Another scanarr command or serve using this file, ` +
        "or a program such as sqlite3 or DB Browser for SQLite with the file open, probably has it; close that program and start again",
      1,
    );
  }
  const message = messageOf(error);
  if (error instanceof UserError) return new UserError(`cannot open the database ${file}: ${message}`, 1);
  if (storageTroubleOf(error) === "full") {
    return new UserError(
      `cannot open the database ${file}: the disk holding ${path.dirname(file)} is full (${message}); free some space there`,
      1,
    );
  }
  return new Error(`cannot open the database ${file}: ${message}`);
}

/**
 * Leaves EXCLUSIVE locking mode (see openServiceDatabase): out of WAL mode and
 * back, the only way SQLite allows, so the -shm file is made now that there is
 * room. Throws (and stays exclusive) while the disk cannot take it.
 */
export function shareDatabase(db: Database): void {
  db.pragma("journal_mode = DELETE");
  db.pragma("locking_mode = NORMAL");
  db.pragma("journal_mode = WAL");
}

/**
 * A one-page write and commit that changes nothing: throws while the
 * database cannot write. (SQLite skips an UPDATE that sets a value to itself,
 * so the value goes one up and back down in the same transaction.)
 */
export function probeWrite(db: Database): void {
  const nudge = db.prepare("UPDATE scan_migrations SET applied_at = applied_at + ? WHERE version = 1");
  db.transaction(() => {
    nudge.run(1);
    nudge.run(-1);
  }).immediate();
}

/** Creates `dir` (and parents) as 0700, and narrows an existing one to 0700. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

function ensurePrivateFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, "a", 0o600));
  for (const suffix of ["", "-wal", "-shm"]) {
    if (existsSync(file + suffix)) chmodSync(file + suffix, 0o600);
  }
}

/**
 * Runs `fn` in an IMMEDIATE transaction of its own, or inside the caller's
 * when one is open (group commit): the caller's commit or rollback then
 * covers it whole.
 */
export function inTransaction<T>(db: Database, fn: () => T): T {
  return db.inTransaction ? fn() : db.transaction(fn).immediate();
}
