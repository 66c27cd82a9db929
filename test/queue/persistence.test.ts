import { describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startDelivery } from "../../src/delivery/scheduler.js";
import { advance, createQueue, recordingTarget, request, tempDatabase, deliveryTargetOf } from "./helpers.js";

describe("persistence", () => {
  it("resumes pending scans after the database is closed and reopened", async () => {
    const files = tempDatabase();
    const clock = new ManualClock();
    const first = createQueue({ db: files.db, clock });
    first.queue.enqueue([request("/data/TV/Show/Season 1"), request("/data/Movies/Film")]);
    files.db.close();

    const second = createQueue({ db: files.reopen(), clock });
    expect(
      second.reads
        .listPending()
        .map((s) => s.folder)
        .sort(),
    ).toEqual(["/data/Movies/Film", "/data/TV/Show/Season 1"]);
    const target = recordingTarget(clock);
    startDelivery({ queue: second.queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger() });
    await advance(clock, 10_000);
    expect(target.scans.map((s) => s.folder).sort()).toEqual(["/data/Movies/Film", "/data/TV/Show/Season 1"]);
  });

  it("puts deliveries a crash left in flight back to pending, open to new requests again", () => {
    const files = tempDatabase();
    const clock = new ManualClock();
    const first = createQueue({ db: files.db, clock });
    first.queue.enqueue([request("/data/TV/Show")]);
    clock.advance(10_000);
    expect(first.queue.claimDue("plex", 5)).toHaveLength(1);
    expect(first.reads.listPending()[0]?.state).toBe("delivering");
    // While it is in flight, a new request must not merge into it.
    expect(first.queue.enqueue([request("/data/TV/Show/Season 1")]).queued).toEqual(["/data/TV/Show/Season 1"]);
    files.db.close(); // the "crash": nothing recorded the outcome

    const second = createQueue({ db: files.reopen(), clock });
    const pending = second.reads.listPending();
    // The interrupted scan reopened and took the newer child back in.
    expect(pending.map((s) => [s.folder, s.state, s.requests])).toEqual([["/data/TV/Show", "debouncing", 2]]);
    expect(pending[0]?.deliveries).toMatchObject([{ target: "plex", state: "pending", attempts: 0 }]);
  });

  it("adds a delivery for a target configured after the scan was queued", () => {
    const files = tempDatabase();
    const clock = new ManualClock();
    createQueue({ db: files.db, clock }).queue.enqueue([request("/data/TV/Show")]);
    const reopened = createQueue({ db: files.db, clock, targets: ["plex", "plex-4k"] });
    expect(reopened.reads.listPending()[0]?.deliveries.map((d) => d.target)).toEqual(["plex", "plex-4k"]);
  });

  it("leaves in-flight deliveries alone when opened by a read-only inspector", () => {
    const files = tempDatabase();
    const clock = new ManualClock();
    const serve = createQueue({ db: files.db, clock });
    serve.queue.enqueue([request("/data/TV/Show")]);
    clock.advance(10_000);
    serve.queue.claimDue("plex", 1);
    const inspector = createQueue({ db: files.reopen(), clock, recover: false });
    expect(inspector.reads.listPending()[0]?.state).toBe("delivering");
  });

  it("keeps a bounded history of done scans", async () => {
    const { queue, clock, reads } = createQueue({ delayMs: 0, history: { done: 3 } });
    const target = recordingTarget(clock);
    startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger() });
    for (let i = 0; i < 6; i++) {
      queue.enqueue([request(`/data/TV/Show ${i}`)]);
      await advance(clock, 1_000);
    }
    expect(target.scans).toHaveLength(6);
    expect(reads.recent(10).map((s) => s.folder)).toEqual(["/data/TV/Show 5", "/data/TV/Show 4", "/data/TV/Show 3"]);
  });
});
