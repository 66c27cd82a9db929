/**
 * The queue's migrations. The database file is shared (the drive monitor keeps
 * its `drive_*` tables in it), so the version lives in our own table rather
 * than in PRAGMA user_version, which only one owner could use.
 */
export const MIGRATIONS: readonly string[] = [
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
  // 2: claims carry an owner and a lease; deliveries carry their scan's
  // priority so the claim is an index range scan; states that later steps
  // use (files to wait for, confirmation, skipped targets, cancelled scans).
  // SQLite cannot alter a CHECK constraint, so both tables are rebuilt.
  `
  CREATE TABLE scan_queue_v2 (
    id INTEGER PRIMARY KEY,
    folder TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('open', 'closed', 'done', 'unconfirmed', 'failed', 'cancelled')),
    priority INTEGER NOT NULL,
    requests INTEGER NOT NULL,
    source TEXT NOT NULL,
    event TEXT NOT NULL,
    first_requested_at INTEGER NOT NULL,
    last_requested_at INTEGER NOT NULL,
    due_at INTEGER NOT NULL,
    finished_at INTEGER,
    -- none: no file to wait for; waiting: named files not yet seen; ready: all seen
    -- (or the folder is scanned anyway after the checks ran out).
    files_state TEXT NOT NULL DEFAULT 'none' CHECK (files_state IN ('none', 'waiting', 'ready')),
    file_checks INTEGER NOT NULL DEFAULT 0,
    file_check_at INTEGER NOT NULL DEFAULT 0,
    detail TEXT
  );
  INSERT INTO scan_queue_v2 (id, folder, state, priority, requests, source, event, first_requested_at, last_requested_at, due_at, finished_at)
    SELECT id, folder, state, priority, requests, source, event, first_requested_at, last_requested_at, due_at, finished_at FROM scan_queue;

  CREATE TABLE scan_delivery_v2 (
    id INTEGER PRIMARY KEY,
    scan_id INTEGER NOT NULL REFERENCES scan_queue (id) ON DELETE CASCADE,
    target TEXT NOT NULL,
    -- waiting: held back by its scan (files not seen yet); pending: claimable once due;
    -- delivering: claimed by owner until lease_until; confirming: accepted, being confirmed;
    -- skipped: the target has no library for the folder.
    state TEXT NOT NULL CHECK (state IN ('waiting', 'pending', 'delivering', 'confirming', 'done', 'unconfirmed', 'skipped', 'failed', 'cancelled')),
    priority INTEGER NOT NULL,
    due_at INTEGER NOT NULL,
    retry_at INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    libraries TEXT,
    owner TEXT,
    lease_until INTEGER,
    delivered_at INTEGER,
    detail TEXT,
    updated_at INTEGER NOT NULL
  );
  INSERT INTO scan_delivery_v2 (id, scan_id, target, state, priority, due_at, retry_at, attempts, last_error, libraries, updated_at)
    SELECT d.id, d.scan_id, d.target, d.state, s.priority, d.due_at, d.retry_at, d.attempts, d.last_error, d.libraries, d.updated_at
    FROM scan_delivery d JOIN scan_queue s ON s.id = d.scan_id;

  DROP TABLE scan_delivery;
  DROP TABLE scan_queue;
  ALTER TABLE scan_queue_v2 RENAME TO scan_queue;
  ALTER TABLE scan_delivery_v2 RENAME TO scan_delivery;

  CREATE UNIQUE INDEX scan_queue_open_folder ON scan_queue (folder) WHERE state = 'open';
  CREATE INDEX scan_queue_state_first ON scan_queue (state, first_requested_at);
  CREATE INDEX scan_queue_state_finished ON scan_queue (state, finished_at);
  CREATE INDEX scan_queue_last_requested ON scan_queue (last_requested_at);
  CREATE INDEX scan_queue_file_checks ON scan_queue (file_check_at) WHERE files_state = 'waiting';

  CREATE UNIQUE INDEX scan_delivery_scan_target ON scan_delivery (scan_id, target);
  -- The claim: best priority first, then the earliest due; a range scan per priority.
  CREATE INDEX scan_delivery_claim ON scan_delivery (target, priority, due_at, id) WHERE state = 'pending';
  CREATE INDEX scan_delivery_next ON scan_delivery (target, due_at) WHERE state = 'pending';
  CREATE INDEX scan_delivery_lease ON scan_delivery (lease_until) WHERE state = 'delivering';

  -- Files a scan waits for (imports) or expects gone (deletions), in the media server's path form.
  CREATE TABLE scan_file (
    scan_id INTEGER NOT NULL REFERENCES scan_queue (id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    deletion INTEGER NOT NULL DEFAULT 0,
    seen INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scan_id, path)
  ) WITHOUT ROWID;
  `,
  // 3: a delivery Plex accepted keeps its confirmation progress (sections,
  // scan times, results) in \`confirm\` while it is 'confirming'; the partial
  // index lets one poll find every confirming delivery at once.
  `
  ALTER TABLE scan_delivery ADD COLUMN confirm TEXT;
  CREATE INDEX scan_delivery_confirming ON scan_delivery (id) WHERE state = 'confirming';
  `,
  // 4: scans per state, kept by triggers, so the dashboard, the metrics and
  // the queue count never walk 100,000 finished scans to count them.
  `
  CREATE TABLE scan_count (state TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO scan_count (state, n) SELECT state, COUNT(*) FROM scan_queue GROUP BY state;
  CREATE TRIGGER scan_count_insert AFTER INSERT ON scan_queue BEGIN
    INSERT INTO scan_count (state, n) VALUES (NEW.state, 1) ON CONFLICT (state) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER scan_count_delete AFTER DELETE ON scan_queue BEGIN
    UPDATE scan_count SET n = n - 1 WHERE state = OLD.state;
  END;
  CREATE TRIGGER scan_count_state AFTER UPDATE OF state ON scan_queue WHEN OLD.state IS NOT NEW.state BEGIN
    UPDATE scan_count SET n = n - 1 WHERE state = OLD.state;
    INSERT INTO scan_count (state, n) VALUES (NEW.state, 1) ON CONFLICT (state) DO UPDATE SET n = n + 1;
  END;
  `,
  // 5: item refresh (docs/item-refresh.md). A file whose item is refreshed
  // (a sidecar's video, a file replaced in place) is marked; a scan asked
  // only for sidecars needs no folder scan where the target knows the items
  // (scan_folder 0), until any other request merges into it.
  `
  ALTER TABLE scan_queue ADD COLUMN scan_folder INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE scan_file ADD COLUMN refresh INTEGER NOT NULL DEFAULT 0;
  `,
  // 6: what \`scanarr status\` and the reasons need. Each path a request named,
  // as the source named it and as mapped (with the SERVER_PATH_MAPPINGS key
  // that mapped it), kept with the scan that took it in (one row per path and
  // scan: a repeated request counts up). What holds every delivery back now
  // (a missing anchor, a target down or refusing its token), written by serve
  // when it changes, so the pages and \`scanarr status\` read the same facts.
  // Two partial indexes let the shown-state counts cost what they count.
  `
  CREATE TABLE scan_request (
    scan_id INTEGER NOT NULL REFERENCES scan_queue (id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    mapped TEXT NOT NULL,
    mapping_key TEXT,
    mapping_prefix TEXT,
    source TEXT NOT NULL,
    event TEXT NOT NULL,
    first_at INTEGER NOT NULL,
    last_at INTEGER NOT NULL,
    times INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (scan_id, path)
  ) WITHOUT ROWID;
  CREATE INDEX scan_request_path ON scan_request (path);
  CREATE INDEX scan_request_mapped ON scan_request (mapped);
  CREATE INDEX scan_queue_folder ON scan_queue (folder);
  CREATE TABLE scan_hold (
    key TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('anchor', 'target-down', 'token-refused')),
    subject TEXT NOT NULL,
    detail TEXT,
    since INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX scan_queue_live_due ON scan_queue (due_at, files_state) WHERE state IN ('open', 'closed');
  CREATE INDEX scan_delivery_retrying ON scan_delivery (scan_id) WHERE state = 'pending' AND attempts > 0;
  `,
  // 7: scan_request as a rowid table with a unique index on (scan_id, path).
  // A path named again counts up on every webhook; in a WITHOUT ROWID table
  // that rewrote the row as a key (delete and insert, often a second page),
  // here it is overwritten in place and no index changes. Same columns, same
  // conflict target: an older scanarr reads and writes it as before.
  `
  CREATE TABLE scan_request_v7 (
    scan_id INTEGER NOT NULL REFERENCES scan_queue (id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    mapped TEXT NOT NULL,
    mapping_key TEXT,
    mapping_prefix TEXT,
    source TEXT NOT NULL,
    event TEXT NOT NULL,
    first_at INTEGER NOT NULL,
    last_at INTEGER NOT NULL,
    times INTEGER NOT NULL DEFAULT 1
  );
  INSERT INTO scan_request_v7 (scan_id, path, mapped, mapping_key, mapping_prefix, source, event, first_at, last_at, times)
    SELECT scan_id, path, mapped, mapping_key, mapping_prefix, source, event, first_at, last_at, times FROM scan_request ORDER BY scan_id, path;
  DROP TABLE scan_request;
  ALTER TABLE scan_request_v7 RENAME TO scan_request;
  CREATE UNIQUE INDEX scan_request_scan_path ON scan_request (scan_id, path);
  CREATE INDEX scan_request_path ON scan_request (path);
  CREATE INDEX scan_request_mapped ON scan_request (mapped);
  `,
  // 8: the read side's indexes, made once here rather than by the readers
  // (earlier versions made them when a reader started: IF NOT EXISTS). The
  // history and the queue page are keyset pages over an index in their own
  // order; the statistics' are partial (only finished deliveries have
  // entries), so the hot path pays nothing while a delivery waits or runs.
  `
  CREATE INDEX IF NOT EXISTS scan_queue_history ON scan_queue (finished_at DESC, id DESC) WHERE finished_at IS NOT NULL;
  CREATE INDEX IF NOT EXISTS scan_queue_pending_order ON scan_queue (priority, due_at, id) WHERE state IN ('open', 'closed');
  CREATE INDEX IF NOT EXISTS scan_delivery_finished ON scan_delivery (target, updated_at, state) WHERE state IN ('done', 'unconfirmed', 'failed');
  CREATE INDEX IF NOT EXISTS scan_delivery_confirmed ON scan_delivery (updated_at) WHERE state = 'done' AND confirm IS NOT NULL;
  `,
  // 9: indexes every new-file webhook wrote for a reader a person starts now and then. A new
  // path went into two (by path as named and as mapped), about a third of the pages a merge
  // wrote, for \`scanarr status\` alone; each merge moved the scan in the last-request one,
  // for the manual page's 50 latest scans alone. Those readers now read the table through.
  `
  DROP INDEX IF EXISTS scan_request_path;
  DROP INDEX IF EXISTS scan_request_mapped;
  DROP INDEX IF EXISTS scan_queue_last_requested;
  `,
  // 10: a confirming delivery's due_at is when its driver looks at it next, so
  // a poll reads the deliveries due, not every one being confirmed.
  `
  CREATE INDEX IF NOT EXISTS scan_delivery_confirm_due ON scan_delivery (target, due_at, id) WHERE state = 'confirming';
  `,
  // 11: a path's rows are found by (scan, path key), a 4-byte hash of the path (queue/path-key.ts),
  // not by (scan, full path): a new path went into the middle of its scan's range of ~100-byte keys
  // and split a page every few webhooks. scan_file becomes a rowid table (new rows at its end);
  // uniqueness per scan and path is kept by the writers, which compare the path itself.
  `
  CREATE TABLE scan_file_v11 (
    scan_id INTEGER NOT NULL REFERENCES scan_queue (id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    deletion INTEGER NOT NULL DEFAULT 0,
    seen INTEGER NOT NULL DEFAULT 0,
    refresh INTEGER NOT NULL DEFAULT 0,
    path_key INTEGER NOT NULL
  );
  INSERT INTO scan_file_v11 (scan_id, path, deletion, seen, refresh, path_key)
    SELECT scan_id, path, deletion, seen, refresh, scanarr_path_key(path) FROM scan_file ORDER BY scan_id, path;
  DROP TABLE scan_file;
  ALTER TABLE scan_file_v11 RENAME TO scan_file;
  CREATE INDEX scan_file_scan_key ON scan_file (scan_id, path_key);
  ALTER TABLE scan_request ADD COLUMN path_key INTEGER NOT NULL DEFAULT 0;
  UPDATE scan_request SET path_key = scanarr_path_key(path);
  DROP INDEX IF EXISTS scan_request_scan_path;
  CREATE INDEX scan_request_scan_key ON scan_request (scan_id, path_key);
  `,
];
