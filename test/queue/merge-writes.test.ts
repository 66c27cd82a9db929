import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { createGroupCommit } from "../../src/queue/group-commit.js";
import { ScanQueue } from "../../src/queue/scan-queue.js";
import type { Database } from "../../src/queue/storage/database.js";
import { migrateQueue } from "../../src/queue/storage/migrate.js";
import { backToVersion10, createQueue, request } from "./helpers.js";

// A merge writes only what changes (issue 26); these are the facts it must still get right.

const SEASON = "/data/TV/Show/Season 1";
const FILE = `${SEASON}/Show - S01E01.mkv`;

function sonarrImport(mappingKey: string, mappingPrefix: string, event = "Download") {
  const path = `${mappingPrefix}Show/Season 1/Show - S01E01.mkv`;
  return { folder: SEASON, source: "sonarr", event, files: [FILE], origins: [{ path, mapped: FILE, mappingKey, mappingPrefix }] };
}

function countsOf(db: Database): { kept: Record<string, number>; counted: Record<string, number> } {
  const rows = (sql: string) => db.prepare(sql).all() as Array<{ state: string; n: number }>;
  const byState = (list: Array<{ state: string; n: number }>) => Object.fromEntries(list.map((r) => [r.state, r.n]));
  return {
    kept: byState(rows("SELECT state, n FROM scan_count WHERE n <> 0")),
    counted: byState(rows("SELECT state, COUNT(*) AS n FROM scan_queue GROUP BY state")),
  };
}

describe("a request merging into an open scan", () => {
  it("counts a path named again up, and records a new mapping of it when the config changed in between", () => {
    const { queue, clock, reads } = createQueue();
    queue.enqueue([sonarrImport("/data/TV/", "/tv/")]);
    clock.advance(1_000);
    queue.enqueue([sonarrImport("/data/TV/", "/tv/", "Upgrade")]);
    expect(reads.listPending()[0]?.origins).toMatchObject([
      { path: "/tv/Show/Season 1/Show - S01E01.mkv", mappingKey: "/data/TV/", mappingPrefix: "/tv/", event: "Upgrade", times: 2 },
    ]);
    // Same path as Sonarr named it, mapped by another entry now.
    clock.advance(1_000);
    const moved = sonarrImport("/data/TV/", "/tv/");
    const [origin] = moved.origins;
    if (origin) Object.assign(origin, { mappingKey: "/data/", mappingPrefix: "/tv/../" });
    queue.enqueue([moved]);
    expect(reads.listPending()[0]?.origins).toMatchObject([
      { path: "/tv/Show/Season 1/Show - S01E01.mkv", mapped: FILE, mappingKey: "/data/", mappingPrefix: "/tv/../", times: 3 },
    ]);
  });

  it("keeps its first request and its state, moves its debounce, and leaves the counts right", () => {
    const { queue, clock, db, reads } = createQueue({ delayMs: 10_000 });
    const start = clock.now();
    queue.enqueue([request(SEASON)]);
    clock.advance(4_000);
    queue.enqueue([{ ...request(SEASON, "radarr", "Rename"), priority: -1 }]);
    expect(reads.listPending()[0]).toMatchObject({
      requests: 2,
      firstRequestedAt: start,
      lastRequestedAt: start + 4_000,
      dueAt: start + 14_000,
      priority: -1,
      source: "radarr",
      event: "Rename",
    });
    expect(countsOf(db).kept).toEqual({ open: 1 });
    expect(countsOf(db).kept).toEqual(countsOf(db).counted);
  });

  it("takes an earlier first request from a process whose clock is behind", () => {
    const { queue, clock, db, reads } = createQueue();
    queue.enqueue([request(SEASON)]);
    const behind = createQueue({ db, clock: new ManualClock(clock.now() - 5_000), recover: false }).queue;
    behind.enqueue([request(SEASON)]);
    expect(reads.listPending()[0]).toMatchObject({ requests: 2, firstRequestedAt: clock.now() - 5_000, lastRequestedAt: clock.now() });
    expect(countsOf(db).kept).toEqual(countsOf(db).counted);
  });

  it("needs the folder scanned again when a folder request merges into a scan asked only for sidecars", () => {
    const { queue, db } = createQueue();
    const subtitle = `${SEASON}/Show - S01E01.en.srt`;
    queue.enqueue([{ ...request(SEASON), files: [subtitle], refresh: true, scanFolder: false }]);
    const scanFolder = () => (db.prepare("SELECT scan_folder AS v FROM scan_queue").get() as { v: number }).v;
    expect(scanFolder()).toBe(0);
    queue.enqueue([{ ...request(SEASON), files: [subtitle], refresh: true, scanFolder: false }]);
    expect(scanFolder()).toBe(0);
    queue.enqueue([request(SEASON)]);
    expect(scanFolder()).toBe(1);
  });

  it("waits again for a file it had seen when the file is named again, keeps a refresh asked for, and takes a deletion", () => {
    const { queue, db, reads } = createQueue({ fileChecks: { maxChecks: 3, delayMs: 60_000, scanFolderOnExhaustion: false } });
    queue.enqueue([sonarrImport("/data/TV/", "/tv/")]);
    db.prepare("UPDATE scan_file SET seen = 1").run();
    queue.enqueue([sonarrImport("/data/TV/", "/tv/")]);
    expect(reads.listPending()[0]?.files).toEqual([{ path: FILE, deleted: false, seen: false }]);
    queue.enqueue([sonarrImport("/data/TV/", "/tv/")]);
    expect(reads.listPending()[0]?.files).toEqual([{ path: FILE, deleted: false, seen: false }]);
    const refresh = () => (db.prepare("SELECT refresh AS v FROM scan_file").get() as { v: number }).v;
    queue.enqueue([{ ...sonarrImport("/data/TV/", "/tv/"), refresh: true }]);
    expect(refresh()).toBe(1);
    queue.enqueue([sonarrImport("/data/TV/", "/tv/")]);
    expect(refresh()).toBe(1);
    queue.enqueue([{ ...sonarrImport("/data/TV/", "/tv/"), deletion: true }]);
    expect(refresh()).toBe(0);
    expect(reads.listPending()[0]?.files).toEqual([{ path: FILE, deleted: true, seen: false }]);
  });
});

describe("one group commit naming one folder several times", () => {
  it("answers each caller as it would have been answered alone and keeps one scan", async () => {
    const { queue, db, reads } = createQueue();
    const { enqueue } = createGroupCommit(queue, (fn) => queue.batch(fn), ScanQueue.checkRequests);
    const answers = await Promise.all([
      enqueue([request(SEASON)]),
      enqueue([request(SEASON)]),
      enqueue([request("/data/TV/Show")]),
      enqueue([request(SEASON)]),
    ]);
    expect(answers).toEqual([
      { queued: [SEASON], covered: [] },
      { queued: [SEASON], covered: [] },
      { queued: ["/data/TV/Show"], covered: [] },
      { queued: [], covered: [SEASON] },
    ]);
    expect(reads.listPending().map((s) => [s.folder, s.requests])).toEqual([["/data/TV/Show", 4]]);
    expect(countsOf(db).kept).toEqual({ open: 1 });
    expect(countsOf(db).kept).toEqual(countsOf(db).counted);
  });
});

describe("the request paths table", () => {
  it("keeps every path and its count when a version 6 database is upgraded, and counts on", () => {
    const { queue, clock, db, reads } = createQueue();
    queue.enqueue([sonarrImport("/data/TV/", "/tv/")]);
    queue.enqueue([{ ...request("/data/Movies/Film"), origins: [{ path: "/movies/Film", mapped: "/data/Movies/Film" }] }]);
    // Back to scan_request as version 6 made it.
    backToVersion10(db);
    db.exec(`CREATE TABLE kept AS SELECT * FROM scan_request; DROP TABLE scan_request;
             CREATE TABLE scan_request (
               scan_id INTEGER NOT NULL REFERENCES scan_queue (id) ON DELETE CASCADE, path TEXT NOT NULL, mapped TEXT NOT NULL,
               mapping_key TEXT, mapping_prefix TEXT, source TEXT NOT NULL, event TEXT NOT NULL, first_at INTEGER NOT NULL,
               last_at INTEGER NOT NULL, times INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (scan_id, path)) WITHOUT ROWID;
             CREATE INDEX scan_request_path ON scan_request (path); CREATE INDEX scan_request_mapped ON scan_request (mapped);
             INSERT INTO scan_request SELECT * FROM kept; DROP TABLE kept; DELETE FROM scan_migrations WHERE version >= 7`);
    const before = db.prepare("SELECT * FROM scan_request ORDER BY scan_id, path").all();
    migrateQueue(db);
    const after = db.prepare("SELECT * FROM scan_request ORDER BY scan_id, path").all() as Array<{ path_key?: number }>;
    expect(after.map(({ path_key, ...row }) => row)).toEqual(before);
    expect((db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'scan_request'").get() as { sql: string }).sql).not.toMatch(
      /WITHOUT ROWID/,
    );
    clock.advance(1_000);
    queue.enqueue([sonarrImport("/data/TV/", "/tv/")]);
    // The TV scan's debounce moved past the film's.
    expect(reads.listPending().map((s) => s.origins.map((o) => [o.path, o.times]))).toEqual([
      [["/movies/Film", 1]],
      [["/tv/Show/Season 1/Show - S01E01.mkv", 2]],
    ]);
  });
});
