import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/lib/clock.js";
import { HOUR_MS, LATENCY_SAMPLE, QueueStats } from "../../../src/queue/views/history-stats.js";
import { createQueue, request, tempDatabase } from "../helpers.js";

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
    expect(stats.deliveriesPerHour(["plex", "jellyfin"], start, until)).toEqual([
      { target: "jellyfin", hour: start, n: 1 },
      { target: "plex", hour: start, n: 1 },
      { target: "jellyfin", hour: start + HOUR_MS, n: 1 },
      { target: "plex", hour: start + HOUR_MS, n: 1 },
    ]);
    expect(stats.deliveriesPerHour(["plex", "jellyfin"], start + HOUR_MS, until)).toHaveLength(2);
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

  it("reads each window from an index, never a whole table, and no more than the sample for the latency", () => {
    const { db } = tempDatabase();
    const stats = new QueueStats(db);
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ since: 0, until: 1, targets: "[]" }) as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join("; ");
    const sources = Object.values(stats as unknown as Record<string, { source: string }>).map((s) => plan(s.source));
    expect(sources).toHaveLength(3);
    expect(sources[0]).toMatch(/USING COVERING INDEX scan_queue_state_finished \(state=\? AND finished_at>\? AND finished_at<\?\)/);
    expect(sources[1]).toMatch(/USING COVERING INDEX scan_delivery_finished \(target=\? AND updated_at>\? AND updated_at<\?\)/);
    expect(sources[2]).toMatch(/USING INDEX scan_delivery_confirmed \(updated_at>\? AND updated_at<\?\)/);
    for (const p of sources) expect(p).not.toMatch(/(^|; )SCAN (scan_queue|scan_delivery)( |;|$)/);
  });

  it("takes the percentiles from the latest confirmations only", () => {
    const q = createQueue();
    const stats = new QueueStats(q.db);
    const since = q.clock.now();
    // Slow ones first, then a full sample of fast ones: only the fast ones count.
    for (let i = 0; i < 5; i++) confirmOne(q, `/data/TV/Slow ${i}`, 600_000);
    for (let i = 0; i < LATENCY_SAMPLE; i++) confirmOne(q, `/data/TV/Fast ${i}`, 2_000);
    expect(stats.confirmLatency(since, q.clock.now() + 1)).toEqual({ count: LATENCY_SAMPLE, medianMs: 2_000, p95Ms: 2_000 });
  });
});
