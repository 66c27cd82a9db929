import type { Database } from "better-sqlite3";

/**
 * The queue's migrations. The database file is shared (the drive monitor keeps
 * its `drive_*` tables in it), so the version lives in our own table rather
 * than in PRAGMA user_version, which only one owner could use.
 */
const MIGRATIONS: string[] = [
  `
  CREATE TABLE scan_queue (
    id INTEGER PRIMARY KEY,
    folder TEXT NOT NULL,
    -- open: waiting, new requests merge into it; closed: some delivery started
    -- or finished; done / failed: every delivery finished.
    state TEXT NOT NULL CHECK (state IN ('open', 'closed', 'done', 'failed')),
    priority INTEGER NOT NULL,
    requests INTEGER NOT NULL,
    source TEXT NOT NULL,
    event TEXT NOT NULL,
    first_requested_at INTEGER NOT NULL,
    last_requested_at INTEGER NOT NULL,
    due_at INTEGER NOT NULL,
    finished_at INTEGER
  );
  -- One open scan per folder; also the index of the coalescing lookups.
  CREATE UNIQUE INDEX scan_queue_open_folder ON scan_queue (folder) WHERE state = 'open';
  CREATE INDEX scan_queue_state_first ON scan_queue (state, first_requested_at);
  CREATE INDEX scan_queue_state_finished ON scan_queue (state, finished_at);
  CREATE INDEX scan_queue_last_requested ON scan_queue (last_requested_at);

  CREATE TABLE scan_delivery (
    id INTEGER PRIMARY KEY,
    scan_id INTEGER NOT NULL REFERENCES scan_queue (id) ON DELETE CASCADE,
    target TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivering', 'done', 'failed')),
    -- When this delivery may run: the later of the scan's debounce and retry_at.
    due_at INTEGER NOT NULL,
    retry_at INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    libraries TEXT,
    updated_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX scan_delivery_scan_target ON scan_delivery (scan_id, target);
  CREATE INDEX scan_delivery_due ON scan_delivery (state, target, due_at);
  `,
];

/** Brings the queue tables to the latest version; safe to run on every open. */
export function migrateQueue(db: Database): void {
  db.exec("CREATE TABLE IF NOT EXISTS scan_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const row = db.prepare("SELECT MAX(version) AS version FROM scan_migrations").get() as { version: number | null };
  const current = row.version ?? 0;
  MIGRATIONS.forEach((sql, index) => {
    const version = index + 1;
    if (version <= current) return;
    db.transaction(() => {
      db.exec(sql);
      db.prepare("INSERT INTO scan_migrations (version, applied_at) VALUES (?, ?)").run(version, Date.now());
    })();
  });
}
