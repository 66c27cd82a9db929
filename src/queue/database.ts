import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { migrateQueue } from "./schema.js";
import { messageOf } from "../lib/errors.js";

export type { Database };

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
    db = new BetterSqlite3(file);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    // Another process (a second `scanarr` command) may hold the write lock briefly.
    db.pragma("busy_timeout = 5000");
    db.pragma("foreign_keys = ON");
    db.pragma("wal_autocheckpoint = 0");
    migrateQueue(db);
  } catch (error) {
    db?.close();
    throw new Error(`cannot open the database ${file}: ${messageOf(error)}`);
  }
  return db;
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
