import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { HOUR_MS, QueueStats } from "../../src/queue/history-stats.js";
import { createQueue, request, tempDatabase } from "./helpers.js";

const LIBS = [{ id: "2", title: "TV Shows" }];

/** A scan delivered and confirmed `confirmedAfterMs` after its first request, through the queue's own writes. */
function confirmOne(q: ReturnType<typeof createQueue>, folder: string, confirmedAfterMs: number): void {
  q.queue.enqueue([request(folder)]);
  q.clock.advance(10_000);
  const [job] = q.queue.claimDue("plex", 1);
  if (!job) throw new Error("nothing due");
  q.queue.recordDelivered(job, LIBS, true);
  q.queue.recordConfirmed([
    { deliveryId: job.deliveryId, scanId: job.scanId, state: "done", detail: "confirmed", error: null, progress: { confirmedAfterMs } },
  ]);
}

describe("the history's statistics", () => {
  it("counts finished scans by state and deliveries per target and hour, only inside the window", () => {
    const start = 480_000 * HOUR_MS;
    const q = createQueue({ targets: ["plex", "jellyfin"], clock: new ManualClock(start) });
    const stats = new QueueStats(q.db);
    q.queue.enqueue([request("/data/TV/A")]);
    q.clock.advance(10_000);
    for (const job of q.queue.claimDue("plex", 5)) q.queue.recordDone(job, LIBS);
    for (const job of q.queue.claimDue("jellyfin", 5)) q.queue.recordFailed(job, "refused");
    q.clock.advance(HOUR_MS);
    q.queue.enqueue([request("/data/TV/B")]);
    q.clock.advance(10_000);
    for (const job of q.queue.claimDue("plex", 5)) q.queue.recordDone(job, LIBS);
    for (const job of q.queue.claimDue("jellyfin", 5)) q.queue.recordDone(job, LIBS);
    q.queue.enqueue([request("/data/TV/C")]);
    const pendingId = (q.db.prepare("SELECT id FROM scan_queue WHERE folder = '/data/TV/C'").get() as { id: number }).id;
    expect(q.queue.cancel(pendingId).ok).toBe(true);

    const until = q.clock.now() + 1;
    expect(stats.finishedByState(start, until)).toEqual({ done: 1, failed: 1, cancelled: 1 });
    expect(stats.finishedByState(start + HOUR_MS, until)).toEqual({ done: 1, cancelled: 1 });
    expect(stats.deliveriesPerHour(start, until)).toEqual([
      { target: "jellyfin", hour: start, n: 1 },
      { target: "plex", hour: start, n: 1 },
      { target: "jellyfin", hour: start + HOUR_MS, n: 1 },
      { target: "plex", hour: start + HOUR_MS, n: 1 },
    ]);
    expect(stats.deliveriesPerHour(start + HOUR_MS, until)).toHaveLength(2);
  });

  it("gives the median and 95th percentile of the time to confirmation (nearest rank), none when nothing was confirmed", () => {
    const q = createQueue();
    const stats = new QueueStats(q.db);
    const since = q.clock.now();
    expect(stats.confirmLatency(since, since + 1)).toEqual({ count: 0, medianMs: null, p95Ms: null });
    // 1..20 s: the 10th value is the median, the 19th the 95th percentile.
    for (let i = 20; i >= 1; i--) confirmOne(q, `/data/TV/S${i}`, i * 1_000);
    expect(stats.confirmLatency(since, q.clock.now() + 1)).toEqual({ count: 20, medianMs: 10_000, p95Ms: 19_000 });
  });

  it("reads the window through the history index, never the whole table", () => {
    const { db } = tempDatabase();
    new QueueStats(db);
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ since: 0, until: 1 }) as Array<{ detail: string }>).map((r) => r.detail).join("; ");
    const sources = Object.values(new QueueStats(db) as unknown as Record<string, { source: string }>).map((s) => s.source);
    expect(sources).toHaveLength(3);
    for (const sql of sources) {
      expect(plan(sql)).toMatch(/USING (COVERING )?INDEX scan_queue_history \(finished_at>\? AND finished_at<\?\)/);
      expect(plan(sql)).not.toMatch(/(^|; )SCAN (scan_queue|scan_delivery|s|d)( |;|$)/);
    }
  });
});
