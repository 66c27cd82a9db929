import { describe, expect, it } from "vitest";
import { pathKey } from "../../../src/queue/path-key.js";
import { migrateQueue } from "../../../src/queue/storage/migrate.js";
import { requestStatus } from "../../../src/queue/views/request-status.js";
import { backToVersion10, createQueue } from "../helpers.js";

// Issue 35, migration 11: a scan's paths are found by (scan, 4-byte key) and the path itself.

function named(show: number, file: string, extra: { deletion?: boolean; refresh?: boolean } = {}) {
  const mapped = `/data/TV/Show ${show}/Season 1/${file}`;
  return {
    folder: `/data/TV/Show ${show}/Season 1`,
    source: "sonarr",
    event: "Download",
    files: [mapped],
    origins: [{ path: `/tv/Show ${show}/Season 1/${file}`, mapped, mappingKey: "/data/TV/", mappingPrefix: "/tv/" }],
    ...extra,
  };
}

/** Two file names whose paths in Show 9 share a key (found once by trying E0, E1, ... in turn). */
const COLLIDING: [string, string] = ["E1032789.mkv", "E1629192.mkv"];

const FILE_COLUMNS = "scan_id, path, deletion, seen, refresh";
const REQUEST_COLUMNS = "scan_id, path, mapped, mapping_key, mapping_prefix, source, event, first_at, last_at, times";

describe("path keys (migration 11)", () => {
  it("upgrades a version 10 database with rows in place: every file and request row kept, keyed, and still counted up", () => {
    const { queue, clock, db, reads } = createQueue();
    for (let n = 1; n <= 8; n++) {
      queue.enqueue([named(n % 3, `Show - S01E${n}.mkv`, { refresh: n === 4, deletion: n === 5 })]);
      clock.advance(1_000);
    }
    queue.enqueue([named(1, "Show - S01E1.mkv")]);
    db.prepare("UPDATE scan_file SET seen = 1 WHERE path LIKE '%E7.mkv'").run();
    backToVersion10(db);
    const rows = (sql: string) => db.prepare(sql).all();
    const files = () => rows(`SELECT ${FILE_COLUMNS} FROM scan_file ORDER BY scan_id, path`);
    const requests = () => rows(`SELECT ${REQUEST_COLUMNS} FROM scan_request ORDER BY scan_id, path`);
    const before = [files(), requests()];
    expect(before[0]).toHaveLength(8);
    migrateQueue(db);
    expect([files(), requests()]).toEqual(before);
    const keyed = rows("SELECT path, path_key AS key FROM scan_file UNION ALL SELECT path, path_key FROM scan_request") as Array<{
      path: string;
      key: number;
    }>;
    expect(keyed.filter((r) => r.key !== pathKey(r.path))).toEqual([]);
    const schema = rows("SELECT name, sql FROM sqlite_schema WHERE tbl_name IN ('scan_file', 'scan_request')") as Array<{
      name: string;
      sql: string;
    }>;
    expect(schema.map((r) => r.name).sort()).toEqual(["scan_file", "scan_file_scan_key", "scan_request", "scan_request_scan_key"]);
    expect(schema.find((r) => r.name === "scan_file")?.sql).not.toMatch(/WITHOUT ROWID/);
    // Named again after the upgrade: counted up, not a second row; the seen file goes back to unseen.
    clock.advance(1_000);
    queue.enqueue([named(1, "Show - S01E7.mkv")]);
    expect(files()).toHaveLength(8);
    expect(rows("SELECT path, seen FROM scan_file WHERE path LIKE '%E7.mkv'")).toEqual([
      { path: "/data/TV/Show 1/Season 1/Show - S01E7.mkv", seen: 0 },
    ]);
    expect(rows("SELECT times FROM scan_request WHERE path LIKE '%E7.mkv' OR path LIKE '%E1.mkv' ORDER BY path")).toEqual([
      { times: 2 },
      { times: 2 },
    ]);
    expect(requestStatus(db, ["/tv/Show 1/Season 1/Show - S01E7.mkv"], clock.now()).requests.map((r) => r.origin.times)).toEqual([2]);
    expect(reads.listPending().flatMap((s) => s.origins.map((o) => o.path))).toHaveLength(8);
  });

  it("keeps two paths sharing a key apart: each its own file row, and a repeat counts up only its own request row", () => {
    const { queue, db } = createQueue();
    const [first, second] = COLLIDING;
    const key = (name: string) => pathKey(`/data/TV/Show 9/Season 1/${name}`);
    expect(key(first)).toBe(key(second));
    queue.enqueue([named(9, first)]);
    queue.enqueue([named(9, second)]);
    queue.enqueue([named(9, first)]);
    const rows = db
      .prepare(
        "SELECT r.path, r.times, f.path AS file FROM scan_request r JOIN scan_file f ON f.scan_id = r.scan_id AND f.path = r.mapped ORDER BY r.times DESC",
      )
      .all();
    expect(rows).toEqual([
      { path: `/tv/Show 9/Season 1/${first}`, times: 2, file: `/data/TV/Show 9/Season 1/${first}` },
      { path: `/tv/Show 9/Season 1/${second}`, times: 1, file: `/data/TV/Show 9/Season 1/${second}` },
    ]);
  });

  it("moves an absorbed scan's paths onto its parent's once: a path both named is one file row and one request row", () => {
    const { queue, db } = createQueue();
    const episode = named(2, "Show - S01E1.mkv");
    queue.enqueue([{ ...episode, folder: "/data/TV/Show 2" }]);
    queue.enqueue([named(2, "Show - S01E2.mkv")]);
    // The series folder again, naming the episode the season scan also named: the season scan is absorbed.
    queue.enqueue([{ ...named(2, "Show - S01E2.mkv"), folder: "/data/TV/Show 2" }]);
    const perScan = (table: string) =>
      db.prepare(`SELECT scan_id AS scan, COUNT(*) AS n, COUNT(DISTINCT path) AS paths FROM ${table} GROUP BY scan_id`).all();
    const scans = db.prepare("SELECT id FROM scan_queue WHERE state = 'open'").all() as Array<{ id: number }>;
    expect(scans).toHaveLength(1);
    expect(perScan("scan_file")).toEqual([{ scan: scans[0]?.id, n: 2, paths: 2 }]);
    expect(perScan("scan_request")).toEqual([{ scan: scans[0]?.id, n: 2, paths: 2 }]);
  });
});
