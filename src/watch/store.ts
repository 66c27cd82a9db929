import type Database from "better-sqlite3";
import type { Change, FileMark, PendingFile } from "./settle.js";

/** What a poll round remembers of one folder: its time, its sub-folders and its media files. */
export interface DirSnap {
  /** Modification time when listed; -1 forces a listing next round (changed too recently to trust). */
  mtimeMs: number;
  /** `dev:ino` of the root, so a mount appearing or vanishing over it shows. */
  identity?: string;
  dirs: string[];
  /** Media file name → [size, mtimeMs] (-1 when not stat'ed). */
  files: Record<string, [number, number]>;
}

/** Creates the watch_* tables in the shared database when missing. */
export function migrateWatchTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS watch_dirs (
      path TEXT PRIMARY KEY,
      root TEXT NOT NULL,
      snap TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS watch_dirs_root ON watch_dirs (root);
    CREATE TABLE IF NOT EXISTS watch_pending (
      file TEXT PRIMARY KEY,
      root TEXT NOT NULL,
      folder TEXT NOT NULL,
      change TEXT NOT NULL,
      noted_at INTEGER NOT NULL,
      size INTEGER,
      mtime_ms REAL
    );
  `);
}

interface PendingRow {
  file: string;
  folder: string;
  change: string;
  noted_at: number;
  size: number | null;
  mtime_ms: number | null;
}

/**
 * The poll watcher's durable state: the snapshot it compares against and the
 * changes it has seen but not yet queued. A round's snapshot updates and new
 * pending changes commit in one transaction, so a crash never leaves a file
 * in the snapshot that was neither queued nor pending.
 */
export class WatchStore {
  private readonly upsertDir: Database.Statement<[string, string, string]>;
  private readonly deleteDir: Database.Statement<[string]>;
  private readonly upsertPending: Database.Statement<[string, string, string, string, number, number | null, number | null]>;
  private readonly deletePendingRow: Database.Statement<[string]>;

  constructor(private readonly db: Database.Database) {
    migrateWatchTables(db);
    this.upsertDir = db.prepare(
      "INSERT INTO watch_dirs (path, root, snap) VALUES (?, ?, ?) ON CONFLICT (path) DO UPDATE SET root = excluded.root, snap = excluded.snap",
    );
    this.deleteDir = db.prepare("DELETE FROM watch_dirs WHERE path = ?");
    this.upsertPending = db.prepare(
      `INSERT INTO watch_pending (file, root, folder, change, noted_at, size, mtime_ms) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (file) DO UPDATE SET folder = excluded.folder, change = excluded.change, noted_at = excluded.noted_at,
         size = excluded.size, mtime_ms = excluded.mtime_ms`,
    );
    this.deletePendingRow = db.prepare("DELETE FROM watch_pending WHERE file = ?");
  }

  loadSnapshot(root: string): Map<string, DirSnap> {
    const rows = this.db.prepare("SELECT path, snap FROM watch_dirs WHERE root = ?").all(root) as Array<{ path: string; snap: string }>;
    return new Map(rows.map((row) => [row.path, JSON.parse(row.snap) as DirSnap]));
  }

  loadPending(root: string): PendingFile[] {
    const rows = this.db
      .prepare("SELECT file, folder, change, noted_at, size, mtime_ms FROM watch_pending WHERE root = ?")
      .all(root) as PendingRow[];
    return rows.map((row) => ({
      file: row.file,
      folder: row.folder,
      change: row.change as Change,
      notedAt: row.noted_at,
      ...(row.size !== null && row.mtime_ms !== null ? { mark: { size: row.size, mtimeMs: row.mtime_ms } satisfies FileMark } : {}),
    }));
  }

  commitRound(root: string, upserts: ReadonlyMap<string, DirSnap>, deletes: readonly string[], pending: readonly PendingFile[]): void {
    this.db.transaction(() => {
      for (const [dir, snap] of upserts) this.upsertDir.run(dir, root, JSON.stringify(snap));
      for (const dir of deletes) this.deleteDir.run(dir);
      for (const p of pending)
        this.upsertPending.run(p.file, root, p.folder, p.change, p.notedAt, p.mark?.size ?? null, p.mark?.mtimeMs ?? null);
    })();
  }

  forgetPending(files: readonly string[]): void {
    this.db.transaction(() => {
      for (const file of files) this.deletePendingRow.run(file);
    })();
  }
}
