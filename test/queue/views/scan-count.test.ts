import { describe, expect, it } from "vitest";
import type { Database } from "../../../src/queue/storage/database.js";
import { QueueBrowser } from "../../../src/queue/views/history.js";
import { migrateQueue } from "../../../src/queue/storage/migrate.js";
import { createQueue, request } from "../helpers.js";

/** What the counters must say: a count of the table itself. */
function counted(db: Database): Record<string, number> {
  const rows = db.prepare("SELECT state, COUNT(*) AS n FROM scan_queue GROUP BY state").all() as Array<{ state: string; n: number }>;
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

function kept(db: Database): Record<string, number> {
  const rows = db.prepare("SELECT state, n FROM scan_count WHERE n <> 0").all() as Array<{ state: string; n: number }>;
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

describe("scans per state", () => {
  it("stay equal to a count of the scans through enqueue, delivery, failure, pruning and clearing", () => {
    const { queue, clock, db } = createQueue({ delayMs: 0, history: { done: 2, failed: 10 } });
    const browser = new QueueBrowser(db);
    queue.enqueue(["A", "B", "C", "D", "E", "F"].map((s) => request(`/data/TV/${s}`)));
    expect(kept(db)).toEqual({ open: 6 });
    const [a, b, c, d] = queue.claimDue("plex", 4);
    expect(kept(db)).toEqual(counted(db));
    queue.batch(() => {
      for (const job of [a, b, c]) {
        clock.advance(1_000);
        if (job) queue.recordDone(job, []);
      }
      if (d) queue.recordFailed(d, "refused");
    });
    // The history keeps 2 done scans: the oldest was pruned (deleted), and the counters follow.
    expect(counted(db)).toMatchObject({ done: 2 });
    expect(kept(db)).toEqual(counted(db));
    expect(browser.counts()).toMatchObject({ queued: 2, failed: 1, done: 2 });
    expect(queue.countPending()).toBe(2);
    expect(queue.countFailed()).toBe(1);
    db.prepare("DELETE FROM scan_queue WHERE state = 'failed'").run();
    expect(kept(db)).toEqual(counted(db));
  });

  it("are counted from the existing scans when an older database is upgraded", () => {
    const { queue, db } = createQueue({ delayMs: 0 });
    queue.enqueue([request("/data/TV/A"), request("/data/TV/B"), request("/data/Movies/C")]);
    const [job] = queue.claimDue("plex", 1);
    if (job) queue.recordDone(job, []);
    // Back to the database as version 3 left it.
    db.exec(`DROP TRIGGER scan_count_insert; DROP TRIGGER scan_count_delete; DROP TRIGGER scan_count_state;
             DROP TABLE scan_count; ALTER TABLE scan_queue DROP COLUMN scan_folder; ALTER TABLE scan_file DROP COLUMN refresh;
             DROP TABLE scan_request; DROP TABLE scan_hold; DROP INDEX scan_queue_folder;
             DROP INDEX scan_queue_live_due; DROP INDEX scan_delivery_retrying; DELETE FROM scan_migrations WHERE version >= 4`);
    migrateQueue(db);
    expect(kept(db)).toEqual({ open: 2, done: 1 });
    expect(kept(db)).toEqual(counted(db));
  });
});
