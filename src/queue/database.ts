import { mkdirSync } from "node:fs";
import path from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { migrateQueue } from "./schema.js";

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
 */
export function openDatabase(file: string): Database {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new BetterSqlite3(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    // Another process (a second `scanarr` command) may hold the write lock briefly.
    db.pragma("busy_timeout = 5000");
    db.pragma("foreign_keys = ON");
    migrateQueue(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
