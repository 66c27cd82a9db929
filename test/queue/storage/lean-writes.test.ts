import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, PAGE_BYTES } from "../../../src/queue/storage/database.js";
import { migrateQueue } from "../../../src/queue/storage/migrate.js";
import { requestStatus } from "../../../src/queue/views/request-status.js";
import { backToVersion10, createQueue, tempDatabase } from "../helpers.js";

// Issue 35: a webhook writes the pages it changes; fewer B-trees and smaller pages, the same facts.

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length > 0) rmSync(dirs.pop() as string, { recursive: true, force: true });
});

const indexesOf = (db: BetterSqlite3.Database) =>
  (
    db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{
      name: string;
    }>
  ).map((r) => r.name);

function episode(show: number, n: number) {
  const mapped = `/data/TV/Show ${show}/Season 1/Show ${show} - S01E${n}.mkv`;
  const named = `/tv/Show ${show}/Season 1/Show ${show} - S01E${n}.mkv`;
  return {
    folder: `/data/TV/Show ${show}/Season 1`,
    source: "sonarr",
    event: "Download",
    files: [mapped],
    origins: [{ path: named, mapped, mappingKey: "/data/TV/", mappingPrefix: "/tv/" }],
  };
}

/** scan_request's columns before migration 11 added the path key. */
const VERSION_10_REQUEST = "scan_id, path, mapped, mapping_key, mapping_prefix, source, event, first_at, last_at, times";

describe("the queue's writes (issue 35)", () => {
  it("upgrades a version 8 database in place: the three indexes only readers used are gone, every row kept, status still finds paths", () => {
    const { queue, clock, db, reads } = createQueue();
    for (let n = 1; n <= 6; n++) {
      queue.enqueue([episode(n % 3, n)]);
      clock.advance(1_000);
    }
    // Back to the indexes version 8 had.
    backToVersion10(db);
    db.exec(`CREATE INDEX scan_request_path ON scan_request (path);
             CREATE INDEX scan_request_mapped ON scan_request (mapped);
             CREATE INDEX scan_queue_last_requested ON scan_queue (last_requested_at);
             DELETE FROM scan_migrations WHERE version >= 9`);
    const rows = (sql: string) => db.prepare(sql).all();
    const before = [
      rows("SELECT * FROM scan_queue ORDER BY id"),
      rows(`SELECT ${VERSION_10_REQUEST} FROM scan_request ORDER BY scan_id, path`),
    ];
    const recentBefore = reads.recent(50).map((s) => s.folder);
    migrateQueue(db);
    expect(indexesOf(db).filter((name) => /scan_request_(path|mapped)|last_requested/.test(name))).toEqual([]);
    expect([
      rows("SELECT * FROM scan_queue ORDER BY id"),
      rows(`SELECT ${VERSION_10_REQUEST} FROM scan_request ORDER BY scan_id, path`),
    ]).toEqual(before);
    expect(reads.recent(50).map((s) => s.folder)).toEqual(recentBefore);
    expect(recentBefore[0]).toBe("/data/TV/Show 0/Season 1");
    // Named as the source named it, as mapped, by a folder holding it, and a path no request named.
    const paths = (p: string) => requestStatus(db, [p], clock.now()).requests.map((r) => r.origin.path);
    expect(paths("/tv/Show 1/Season 1/Show 1 - S01E4.mkv")).toEqual(["/tv/Show 1/Season 1/Show 1 - S01E4.mkv"]);
    expect(paths("/data/TV/Show 1/Season 1/Show 1 - S01E4.mkv")).toEqual(["/tv/Show 1/Season 1/Show 1 - S01E4.mkv"]);
    expect(paths("/data/TV/Show 2")).toEqual(["/tv/Show 2/Season 1/Show 2 - S01E5.mkv", "/tv/Show 2/Season 1/Show 2 - S01E2.mkv"]);
    const nowhere = requestStatus(db, ["/tv/Show 2/Season 1/Show 2 - S01E9.mkv"], clock.now());
    expect(nowhere.requests).toEqual([]);
    expect(nowhere.nearest).toContain("/tv/Show 2/Season 1/Show 2 - S01E5.mkv");
  });

  it("writes only the scan's row when a request merges within its due step, and moves the deliveries once the step is past", () => {
    const { queue, clock, db } = createQueue({ delayMs: 100_000, targets: ["plex", "jellyfin"] });
    const deliveries = () => db.prepare("SELECT target, due_at, updated_at FROM scan_delivery ORDER BY target").all();
    const scan = () => db.prepare("SELECT due_at AS dueAt, requests, last_requested_at AS last FROM scan_queue").get();
    queue.enqueue([episode(1, 1)]);
    const first = deliveries();
    const start = clock.now();
    clock.advance(999);
    queue.enqueue([episode(1, 2)]);
    expect(deliveries()).toEqual(first);
    expect(scan()).toEqual({ dueAt: start + 100_000, requests: 2, last: start + 999 });
    clock.advance(1);
    queue.enqueue([episode(1, 3)]);
    expect(scan()).toEqual({ dueAt: start + 101_000, requests: 3, last: start + 1_000 });
    // A delay under 100 ms has no step: every request moves the due time.
    const exact = createQueue({ delayMs: 50 });
    exact.queue.enqueue([episode(1, 1)]);
    exact.clock.advance(1);
    exact.queue.enqueue([episode(1, 2)]);
    expect(exact.db.prepare("SELECT due_at - first_requested_at AS wait FROM scan_queue").get()).toEqual({ wait: 51 });
    expect(deliveries()).toEqual([
      { target: "jellyfin", due_at: start + 101_000, updated_at: start + 1_000 },
      { target: "plex", due_at: start + 101_000, updated_at: start + 1_000 },
    ]);
  });

  it("makes a new database file with small pages", () => {
    const { db } = tempDatabase();
    expect(db.pragma("page_size", { simple: true })).toBe(PAGE_BYTES);
    expect(PAGE_BYTES).toBe(1024);
  });

  it("opens a database made with 4 KiB pages as it is, and queues into it", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "scanarr-pages-"));
    dirs.push(dir);
    mkdirSync(path.join(dir, "data"));
    const file = path.join(dir, "data", "scanarr.db");
    const old = new BetterSqlite3(file);
    old.pragma("page_size = 4096");
    old.pragma("journal_mode = WAL");
    old.exec("CREATE TABLE drive_state (key TEXT PRIMARY KEY, value TEXT)");
    old.close();
    const db = openDatabase(file);
    try {
      expect(db.pragma("page_size", { simple: true })).toBe(4096);
      const { queue, reads } = createQueue({ db });
      queue.enqueue([episode(1, 1)]);
      expect(reads.listPending().map((s) => s.folder)).toEqual(["/data/TV/Show 1/Season 1"]);
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      db.close();
    }
  });
});
