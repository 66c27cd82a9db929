import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import BetterSqlite3, { type Database } from "better-sqlite3";
import { UserError } from "../../domain.js";
import { ensurePrivateDir } from "./database.js";
import { storageTroubleOf } from "./storage-errors.js";

export interface InstanceLock {
  readonly file: string;
  release(): void;
}

/**
 * One `serve` per data directory. The lock is SQLite's own exclusive file
 * lock on `scanarr.lock`, held for the life of the connection: the kernel
 * drops it when the process dies, however it dies, so a crash never leaves a
 * stale lock behind. A second process is refused at once (no busy wait) and
 * has touched nothing. The holder's pid goes to `scanarr.pid` for the message
 * (when the disk has room for it: taking the lock itself writes nothing once
 * the file exists).
 */
export function acquireInstanceLock(dataDir: string): InstanceLock {
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, "scanarr.lock");
  const pidFile = path.join(dataDir, "scanarr.pid");
  let db: Database | undefined;
  try {
    db = new BetterSqlite3(file, { timeout: 0 });
    db.pragma("locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS lock (taken_at INTEGER); COMMIT");
  } catch (error) {
    db?.close();
    if ((error as { code?: string }).code === "SQLITE_BUSY") {
      throw new UserError(
        `another scanarr serve${holderOf(pidFile)} is already using ${dataDir}; stop it first (one serve per data directory)`,
        1,
      );
    }
    if (storageTroubleOf(error) === "full") {
      // Only the first start in a data directory writes the lock file; later ones need no space.
      throw new UserError(`cannot create the instance lock ${file}: the disk holding ${dataDir} is full; free some space there`, 1);
    }
    throw new Error(`cannot take the instance lock ${file}: ${(error as Error).message}`);
  }
  try {
    writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600 });
  } catch {
    // Only a message uses it; a full disk must not keep serve from starting.
  }
  const held = db;
  return {
    file,
    release() {
      if (held.open) held.close();
    },
  };
}

function holderOf(pidFile: string): string {
  try {
    const pid = Number.parseInt(readFileSync(pidFile, "utf8"), 10);
    return Number.isInteger(pid) ? ` (pid ${pid})` : "";
  } catch {
    return "";
  }
}
