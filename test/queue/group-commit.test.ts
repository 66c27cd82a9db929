import BetterSqlite3 from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { EnqueueOutcome, ScanRequest } from "../../src/domain.js";
import { createGroupCommit, type QueueWriter } from "../../src/queue/group-commit.js";
import { ScanQueue } from "../../src/queue/scan-queue.js";
import { DatabaseUnwritableError } from "../../src/queue/storage/storage-errors.js";
import { createQueue, request, tempDatabase } from "./helpers.js";

describe("group commit", () => {
  it("writes the requests of one event-loop turn in one transaction and answers each caller", async () => {
    const { db, file } = tempDatabase();
    const { queue } = createQueue({ db });
    const seenInOneTransaction: boolean[] = [];
    const sink: QueueWriter = {
      enqueue(requests: ScanRequest[]): EnqueueOutcome {
        seenInOneTransaction.push(db.inTransaction);
        return queue.enqueue(requests);
      },
    };
    const { enqueue } = createGroupCommit(sink, (fn) => queue.batch(fn), ScanQueue.checkRequests);
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => enqueue([request(`/data/TV/Show ${i}`)])));
    expect(seenInOneTransaction).toHaveLength(50);
    expect(seenInOneTransaction.every(Boolean)).toBe(true);
    expect(outcomes.map((o) => o.queued[0])).toEqual(Array.from({ length: 50 }, (_, i) => `/data/TV/Show ${i}`));
    const other = new BetterSqlite3(file, { readonly: true });
    try {
      const row = other.prepare("SELECT count(*) AS n FROM scan_queue").get() as { n: number } | undefined;
      expect(row?.n).toBe(50);
    } finally {
      other.close();
    }
  });

  it("answers a caller only after the commit is visible to another connection", async () => {
    const { db, file } = tempDatabase();
    const { queue } = createQueue({ db });
    const { enqueue } = createGroupCommit(queue, (fn) => queue.batch(fn), ScanQueue.checkRequests);
    await enqueue([request("/data/TV/Lost")]);
    const other = new BetterSqlite3(file, { readonly: true });
    try {
      const row = other.prepare("SELECT count(*) AS n FROM scan_queue").get() as { n: number } | undefined;
      expect(row?.n).toBe(1);
    } finally {
      other.close();
    }
  });

  it("fails a bad request alone; the others of its batch are committed", async () => {
    const { db } = tempDatabase();
    const { queue, reads } = createQueue({ db });
    const { enqueue } = createGroupCommit(queue, (fn) => queue.batch(fn), ScanQueue.checkRequests);
    const results = await Promise.allSettled([
      enqueue([request("/data/TV/A")]),
      enqueue([request("relative/path")]),
      enqueue([request("/data/TV/B")]),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(
      reads
        .listPending()
        .map((s) => s.folder)
        .sort(),
    ).toEqual(["/data/TV/A", "/data/TV/B"]);
  });

  it("rolls the whole batch back and fails every caller when writing fails", async () => {
    const { db } = tempDatabase();
    const { queue } = createQueue({ db });
    let calls = 0;
    const failing: QueueWriter = {
      enqueue(requests) {
        calls += 1;
        const outcome = queue.enqueue(requests);
        if (calls === 2) throw new Error("disk I/O error");
        return outcome;
      },
    };
    const { enqueue } = createGroupCommit(failing, (fn) => queue.batch(fn), ScanQueue.checkRequests);
    const results = await Promise.allSettled([enqueue([request("/data/TV/A")]), enqueue([request("/data/TV/B")])]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(queue.countPending()).toBe(0);
  });

  it("refuses without writing while the database cannot write, and reports a write that fails for lack of space", async () => {
    const { db } = tempDatabase();
    const { queue } = createQueue({ db });
    let problem: string | undefined = "the disk holding /srv/data is full (SQLITE_FULL): the database scanarr.db cannot write";
    const reported: unknown[] = [];
    const storage = {
      problem: () => problem,
      report: (error: unknown) => reported.push(error) > 0,
    };
    const { enqueue } = createGroupCommit(queue, (fn) => queue.batch(fn), ScanQueue.checkRequests, undefined, storage);
    const refused = enqueue([request("/data/TV/A")]);
    await expect(refused).rejects.toThrow(DatabaseUnwritableError);
    await expect(refused).rejects.toThrow(/^not queued, nothing was written: the disk holding \/srv\/data is full/);
    expect(queue.countPending()).toBe(0);

    problem = undefined;
    const full: QueueWriter = {
      enqueue(requests) {
        queue.enqueue(requests);
        throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
      },
    };
    const failing = createGroupCommit(full, (fn) => queue.batch(fn), ScanQueue.checkRequests, undefined, storage);
    await expect(failing.enqueue([request("/data/TV/B")])).rejects.toThrow(DatabaseUnwritableError);
    expect(reported).toHaveLength(1);
    expect(queue.countPending()).toBe(0);
  });

  it("flushes at once when a batch is full", async () => {
    const { db } = tempDatabase();
    const { queue } = createQueue({ db });
    const { enqueue } = createGroupCommit(queue, (fn) => queue.batch(fn), ScanQueue.checkRequests, 2);
    const first = enqueue([request("/data/TV/A")]);
    const second = enqueue([request("/data/TV/B")]);
    expect(queue.countPending()).toBe(2);
    await Promise.all([first, second]);
  });
});
