import type Database from "better-sqlite3";

/** One watched change log: My Drive's or a shared drive's, with where to resume. */
export interface LogState {
  /** "my-drive" or the shared drive's id. */
  logKey: string;
  /** Folder id at the top of this log's paths (My Drive's root, or the shared drive id). */
  rootId: string;
  /** First path component: the root's name ("My Drive") or the shared drive's name. */
  rootName: string;
  /** The next page to read; only ever moved forward after that page's scans are committed. */
  pageToken: string;
}

export const MY_DRIVE = "my-drive";

/** Creates the drive_* tables in the shared database when missing. */
export function migrateDriveTables(db: Database.Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS drive_logs (
      log_key TEXT PRIMARY KEY,
      root_id TEXT NOT NULL,
      root_name TEXT NOT NULL,
      page_token TEXT NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS drive_folders (
      id TEXT PRIMARY KEY,
      log_key TEXT NOT NULL,
      name TEXT NOT NULL,
      parent_id TEXT
    );
    CREATE INDEX IF NOT EXISTS drive_folders_log ON drive_folders (log_key);
  `);
}

interface LogRow {
  log_key: string;
  root_id: string;
  root_name: string;
  page_token: string;
}

/** Reads and advances the per-log state; every write is its own committed statement. */
export class LogStore {
  private readonly selectOne: Database.Statement<[string], LogRow>;
  private readonly selectAll: Database.Statement<[], LogRow>;
  private readonly upsert: Database.Statement<[string, string, string, string, number]>;
  private readonly updateToken: Database.Statement<[string, number, string]>;
  private readonly updateName: Database.Statement<[string, string]>;

  constructor(readonly db: Database.Database) {
    this.selectOne = db.prepare("SELECT log_key, root_id, root_name, page_token FROM drive_logs WHERE log_key = ?");
    this.selectAll = db.prepare("SELECT log_key, root_id, root_name, page_token FROM drive_logs");
    this.upsert = db.prepare(
      `INSERT INTO drive_logs (log_key, root_id, root_name, page_token, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (log_key) DO UPDATE SET root_id = excluded.root_id, root_name = excluded.root_name,
         page_token = excluded.page_token, updated_at = excluded.updated_at`,
    );
    this.updateToken = db.prepare("UPDATE drive_logs SET page_token = ?, updated_at = ? WHERE log_key = ?");
    this.updateName = db.prepare("UPDATE drive_logs SET root_name = ? WHERE log_key = ?");
  }

  get(logKey: string): LogState | undefined {
    const row = this.selectOne.get(logKey);
    return row ? toState(row) : undefined;
  }

  all(): LogState[] {
    return this.selectAll.all().map(toState);
  }

  save(state: LogState, now: number): void {
    this.upsert.run(state.logKey, state.rootId, state.rootName, state.pageToken, now);
  }

  advance(logKey: string, pageToken: string, now: number): void {
    this.updateToken.run(pageToken, now, logKey);
  }

  rename(logKey: string, rootName: string): void {
    this.updateName.run(rootName, logKey);
  }
}

function toState(row: LogRow): LogState {
  return { logKey: row.log_key, rootId: row.root_id, rootName: row.root_name, pageToken: row.page_token };
}
