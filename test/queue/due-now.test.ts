import { describe, expect, it } from "vitest";
import { createQueue, request } from "./helpers.js";

const SEASON = "/data/TV/Show/Season 1";

describe("a request that ends its batch (dueNow)", () => {
  it("makes the folder's waiting scan due at once, the per-file requests merged into it: one scan", () => {
    const { queue, clock, reads } = createQueue();
    for (let i = 1; i <= 8; i++) {
      queue.enqueue([{ ...request(SEASON), files: [`${SEASON}/e${i}.mkv`] }]);
      clock.advance(1_500);
    }
    expect(reads.listPending()[0]?.dueAt).toBe(clock.now() - 1_500 + 10_000);
    queue.enqueue([{ ...request(SEASON), files: [`${SEASON}/e1.mkv`], dueNow: true }]);
    const pending = reads.listPending();
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ folder: SEASON, requests: 9, dueAt: clock.now(), state: "queued" });
    expect(pending[0]?.deliveries[0]?.dueAt).toBe(clock.now());
  });

  it("opens a new scan due at once when nothing waits for the folder", () => {
    const { queue, clock, reads } = createQueue();
    queue.enqueue([{ ...request("/data/Movies/Arrival (2016)", "radarr"), dueNow: true }]);
    expect(reads.listPending()[0]).toMatchObject({ dueAt: clock.now(), state: "queued" });
  });

  it("hurries a waiting parent that covers it, and leaves other folders' quiet time alone", () => {
    const { queue, clock, reads } = createQueue();
    queue.enqueue([request("/data/TV/Show"), request("/data/TV/Other/Season 1")]);
    clock.advance(2_000);
    expect(queue.enqueue([{ ...request(SEASON), dueNow: true }])).toEqual({ queued: [], covered: [SEASON] });
    const byFolder = Object.fromEntries(reads.listPending().map((s) => [s.folder, s.dueAt]));
    expect(byFolder).toEqual({ "/data/TV/Show": clock.now(), "/data/TV/Other/Season 1": clock.now() - 2_000 + 10_000 });
  });

  it("is pushed back by a later ordinary request, which starts a fresh quiet time", () => {
    const { queue, clock, reads } = createQueue();
    queue.enqueue([{ ...request(SEASON), dueNow: true }]);
    clock.advance(1_000);
    queue.enqueue([request(SEASON)]);
    expect(reads.listPending()[0]?.dueAt).toBe(clock.now() + 10_000);
  });
});
