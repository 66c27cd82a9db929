import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ScanRequest } from "../../src/domain.js";
import { silentLogger } from "../../src/lib/logger.js";
import type { QueueEvent } from "../../src/queue/events.js";
import { createGroupCommit } from "../../src/queue/group-commit.js";
import { ScanQueue } from "../../src/queue/scan-queue.js";
import { createCommitThread, type CommitThread, type WriterSettings } from "../../src/queue/thread/commit-thread.js";
import { createQueue, request, tempDatabase } from "./helpers.js";

const threads: CommitThread[] = [];
afterEach(async () => {
  while (threads.length > 0) await threads.pop()?.stop();
});

/** A queue on a real file, its group commit, and a commit thread that starts after `burst` requests. */
function setUp(options: { burst?: number; idleStopMs?: number; batchSize?: number } = {}) {
  const { db, file } = tempDatabase();
  const settings: WriterSettings = { targets: ["plex"], delayMs: 10_000 };
  const { queue, clock } = createQueue({ db, ...settings });
  const told: QueueEvent[] = [];
  queue.subscribe((event) => told.push(event));
  const thread = createCommitThread({
    file,
    settings,
    retell: (events) => queue.retell(events),
    canShare: () => true,
    now: () => clock.now(),
    logger: silentLogger(),
    burst: { requests: options.burst ?? 3, withinMs: 60_000 },
    ...(options.idleStopMs !== undefined ? { idleStopMs: options.idleStopMs } : {}),
    ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
  });
  threads.push(thread);
  const mainWrites = vi.spyOn(queue, "enqueue");
  const { enqueue } = createGroupCommit(queue, (fn) => queue.batch(fn), ScanQueue.checkRequests, undefined, undefined, thread);
  /** What another connection reads: a commit the thread made is there the moment its caller is answered. */
  const committed = (): Array<{ folder: string; requests: number }> => {
    const other = new BetterSqlite3(file, { readonly: true });
    try {
      return other.prepare("SELECT folder, requests FROM scan_queue ORDER BY folder").all() as Array<{ folder: string; requests: number }>;
    } finally {
      other.close();
    }
  };
  return { db, file, queue, clock, told, thread, mainWrites, enqueue, committed };
}

const withFile = (folder: string, file: string): ScanRequest => ({ ...request(folder), files: [`${folder}/${file}`] });

describe("the commit thread", () => {
  it("takes over the group commit once requests come fast: the same coalescing, committed before each answer, its events told here", async () => {
    const { thread, mainWrites, enqueue, committed, told, clock } = setUp({ burst: 3 });
    await enqueue([request("/data/TV/Alpha")]);
    expect(thread.ready()).toBe(false);
    await Promise.all([enqueue([request("/data/TV/Beta")]), enqueue([request("/data/TV/Gamma")])]);
    await vi.waitUntil(() => thread.ready(), { timeout: 15_000, interval: 20 });
    const writtenHere = mainWrites.mock.calls.length;
    expect(writtenHere).toBe(3);

    clock.advance(1_000);
    // A folder inside an open scan is covered by it; the same folder merges; a new one is queued.
    const outcomes = await Promise.all([
      enqueue([withFile("/data/TV/Alpha/Season 1", "e1.mkv")]),
      enqueue([request("/data/TV/Beta")]),
      enqueue([request("/data/TV/Delta")]),
    ]);
    expect(mainWrites.mock.calls.length).toBe(writtenHere);
    expect(outcomes).toEqual([
      { queued: [], covered: ["/data/TV/Alpha/Season 1"] },
      { queued: ["/data/TV/Beta"], covered: [] },
      { queued: ["/data/TV/Delta"], covered: [] },
    ]);
    expect(committed()).toEqual([
      { folder: "/data/TV/Alpha", requests: 2 },
      { folder: "/data/TV/Beta", requests: 2 },
      { folder: "/data/TV/Delta", requests: 1 },
      { folder: "/data/TV/Gamma", requests: 1 },
    ]);
    // Told here with this side's clock, so the scheduler arms its timer as for its own commits.
    const last = told.filter((e) => e.type === "enqueued").slice(-3);
    expect(last.map((e) => e.at)).toEqual([clock.now(), clock.now(), clock.now()]);
    expect(last.map((e) => (e.type === "enqueued" ? e.dueAt : 0))).toEqual([
      clock.now() + 10_000,
      clock.now() + 10_000,
      clock.now() + 10_000,
    ]);
  });

  it("writes a burst in batches of at most batchSize, each caller answered after its own batch's commit", async () => {
    const { thread, enqueue, committed, db } = setUp({ burst: 1, batchSize: 4 });
    await enqueue([request("/data/TV/First")]);
    await vi.waitUntil(() => thread.ready(), { timeout: 15_000, interval: 20 });
    const sizes: number[] = [];
    const write = thread.write.bind(thread);
    vi.spyOn(thread, "write").mockImplementation((requests) => {
      sizes.push(requests.length);
      return write(requests);
    });
    const seen = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        enqueue([request(`/data/TV/Show ${i}`)]).then(() => {
          const row = db.prepare("SELECT count(*) AS n FROM scan_queue WHERE folder = ?").get(`/data/TV/Show ${i}`) as { n: number };
          return row.n;
        }),
      ),
    );
    expect(seen.every((n) => n === 1)).toBe(true);
    expect(sizes.every((n) => n <= 4)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(30);
    expect(committed()).toHaveLength(31);
  });

  it("fails every caller of a batch the thread could not commit, with SQLite's code, and writes none of it", async () => {
    const { thread, enqueue, committed, db } = setUp({ burst: 1 });
    await enqueue([request("/data/TV/First")]);
    await vi.waitUntil(() => thread.ready(), { timeout: 15_000, interval: 20 });
    // The paths a request named go to scan_request; without it, the thread's transaction fails and rolls back.
    db.pragma("foreign_keys = OFF");
    db.exec("DROP TABLE scan_request");
    const results = await Promise.allSettled([enqueue([request("/data/TV/Second")]), enqueue([request("/data/TV/Third")])]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    const reason = (results[0] as PromiseRejectedResult).reason as Error & { code?: string };
    expect(reason.message).toMatch(/scan_request/);
    expect(reason.code).toBe("SQLITE_ERROR");
    expect(committed().map((r) => r.folder)).toEqual(["/data/TV/First"]);
  });

  it("stops after idleStopMs without a batch, writes here meanwhile, and starts again at the next burst", async () => {
    const { thread, enqueue, mainWrites, committed } = setUp({ burst: 2, idleStopMs: 100 });
    await Promise.all([enqueue([request("/data/TV/A")]), enqueue([request("/data/TV/B")])]);
    await vi.waitUntil(() => thread.ready(), { timeout: 15_000, interval: 20 });
    await vi.waitUntil(() => !thread.ready(), { timeout: 15_000, interval: 20 });
    const before = mainWrites.mock.calls.length;
    // One request is no burst: a new one is counted from the start.
    await enqueue([request("/data/TV/C")]);
    expect(mainWrites.mock.calls.length).toBe(before + 1);
    expect(thread.ready()).toBe(false);
    await Promise.all([enqueue([request("/data/TV/D")]), enqueue([request("/data/TV/E")])]);
    await vi.waitUntil(() => thread.ready(), { timeout: 15_000, interval: 20 });
    await enqueue([request("/data/TV/F")]);
    expect(mainWrites.mock.calls.length).toBe(before + 3);
    expect(committed().map((r) => r.folder)).toEqual(["A", "B", "C", "D", "E", "F"].map((f) => `/data/TV/${f}`));
  });

  it("answers what it was sent before it stops; after stop, batches are written here and it never starts again", async () => {
    const { thread, enqueue, mainWrites, committed } = setUp({ burst: 1 });
    await enqueue([request("/data/TV/A")]);
    await vi.waitUntil(() => thread.ready(), { timeout: 15_000, interval: 20 });
    const sent = Promise.all([enqueue([request("/data/TV/B")]), enqueue([request("/data/TV/C")])]);
    // Stopped in the same turn the batch was sent.
    await new Promise((resolve) => setImmediate(resolve));
    const stopped = thread.stop();
    await expect(sent).resolves.toHaveLength(2);
    await stopped;
    expect(thread.ready()).toBe(false);
    const before = mainWrites.mock.calls.length;
    await Promise.all([enqueue([request("/data/TV/D")]), enqueue([request("/data/TV/E")])]);
    expect(mainWrites.mock.calls.length).toBe(before + 2);
    expect(thread.ready()).toBe(false);
    expect(committed()).toHaveLength(5);
  });

  it("does not start while the file may not be shared (serve started on a full disk holds it alone)", async () => {
    const { db, file } = tempDatabase();
    const { queue, clock } = createQueue({ db });
    const thread = createCommitThread({
      file,
      settings: { targets: ["plex"], delayMs: 10_000 },
      retell: (events) => queue.retell(events),
      canShare: () => false,
      now: () => clock.now(),
      logger: silentLogger(),
      burst: { requests: 1, withinMs: 60_000 },
    });
    threads.push(thread);
    thread.wrote(100);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(thread.ready()).toBe(false);
    await expect(thread.write([[request("/data/TV/A")]])).rejects.toThrow(/not running/);
  });

  it("a thread that fails at its start is logged, and every batch is written here from then on", async () => {
    const { db } = tempDatabase();
    const { queue, clock } = createQueue({ db });
    const errors: string[] = [];
    const logger = silentLogger();
    vi.spyOn(logger, "error").mockImplementation(((_: unknown, message: string) => void errors.push(message)) as never);
    const thread = createCommitThread({
      // A folder where the database file should be: the thread's connection cannot open it.
      file: tempDatabase().file.replace(/scanarr\.db$/, ""),
      settings: { targets: ["plex"], delayMs: 10_000 },
      retell: (events) => queue.retell(events),
      canShare: () => true,
      now: () => clock.now(),
      logger,
      burst: { requests: 1, withinMs: 60_000 },
    });
    threads.push(thread);
    const { enqueue } = createGroupCommit(queue, (fn) => queue.batch(fn), ScanQueue.checkRequests, undefined, undefined, thread);
    await enqueue([request("/data/TV/A")]);
    await vi.waitUntil(() => errors.length > 0, { timeout: 15_000, interval: 20 });
    expect(errors[0]).toMatch(/commit thread failed/);
    await Promise.all([enqueue([request("/data/TV/B")]), enqueue([request("/data/TV/C")])]);
    expect(thread.ready()).toBe(false);
    expect(queue.countPending()).toBe(3);
  });

  it("never starts when it is not enabled (serve on one CPU)", async () => {
    const { file, thread: enabled } = setUp({ burst: 1 });
    const off = createCommitThread({
      enabled: false,
      file,
      settings: { targets: ["plex"], delayMs: 10_000 },
      retell: () => {},
      canShare: () => true,
      now: () => 0,
      logger: silentLogger(),
      burst: { requests: 1, withinMs: 60_000 },
    });
    threads.push(off);
    off.wrote(100);
    // The same burst starts an enabled one; by the time it is ready, the other would have been too.
    enabled.wrote(100);
    await vi.waitUntil(() => enabled.ready(), { timeout: 15_000, interval: 20 });
    expect(off.ready()).toBe(false);
    await expect(off.write([[request("/data/TV/A")]])).rejects.toThrow(/not running/);
  });
});
