import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { QueueStats } from "../../../src/queue/views/history-stats.js";
import { QueueBrowser } from "../../../src/queue/views/history.js";
import { QueueReads } from "../../../src/queue/views/queue-reads.js";
import { createQueue, request, tempDatabase } from "../helpers.js";

const READ_SIDE_INDEXES = ["scan_queue_history", "scan_queue_pending_order", "scan_delivery_finished", "scan_delivery_confirmed"];

describe("the queue's read side", () => {
  it("finds its indexes made by the migrations when the database is opened, before anything reads", () => {
    const { db } = tempDatabase();
    const names = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index'").all() as Array<{ name: string }>).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(READ_SIDE_INDEXES));
  });

  it("reads through a read-only handle and writes nothing", () => {
    const files = tempDatabase();
    const { queue, clock } = createQueue({ db: files.db });
    queue.enqueue([request("/data/TV/Show")]);
    const readonly = new BetterSqlite3(files.file, { readonly: true, fileMustExist: true });
    try {
      const changesBefore = files.db.prepare("PRAGMA data_version").get();
      const reads = new QueueReads(readonly, clock);
      const browser = new QueueBrowser(readonly, clock);
      const stats = new QueueStats(readonly);
      expect(reads.listPending().map((s) => s.folder)).toEqual(["/data/TV/Show"]);
      expect(browser.pending(10).scans).toHaveLength(1);
      expect(stats.finishedByState(0, clock.now() + 1)).toEqual({});
      expect(files.db.prepare("PRAGMA data_version").get()).toEqual(changesBefore);
    } finally {
      readonly.close();
    }
  });
});
