import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/lib/logger.js";
import { ScanQueue } from "../../src/queue/scan-queue.js";
import { startDelivery, type DeliveryQueue } from "../../src/delivery/scheduler.js";
import {
  advance,
  advanceInSteps,
  capturingLogger,
  createQueue,
  recordingTarget,
  request,
  tempDatabase,
  deliveryTargetOf,
} from "./helpers.js";

describe("claim leases", () => {
  it("retries recording an outcome the database refused, without delivering the folder again", async () => {
    const { queue, clock, reads } = createQueue({ delayMs: 0 });
    const target = recordingTarget(clock);
    let diskFull = true;
    // The database refuses outcome writes (a full disk) until the test frees it.
    const flaky: DeliveryQueue = Object.assign(Object.create(queue) as ScanQueue, {
      recordDone: (...args: Parameters<ScanQueue["recordDone"]>) => {
        if (diskFull) throw new Error("SQLITE_FULL: database or disk is full");
        return queue.recordDone(...args);
      },
    });
    const { logger, lines } = capturingLogger();
    startDelivery({ queue: flaky, targets: [target].map(deliveryTargetOf), clock, logger });
    queue.enqueue([request("/data/TV/Show/Season 1")]);
    await advance(clock, 0);
    expect(target.scans).toHaveLength(1);
    await advanceInSteps(clock, 5 * 60_000, 5_000);
    // Still ours: the lease was renewed while the outcome waited, so nobody delivers it again.
    expect(reads.listPending()[0]?.state).toBe("delivering");
    expect(queue.releaseExpiredLeases()).toEqual([]);
    diskFull = false;
    await advanceInSteps(clock, 10_000, 1_000);
    expect(queue.countPending()).toBe(0);
    expect(reads.recent(1)[0]?.state).toBe("done");
    expect(target.scans).toHaveLength(1);
    expect(lines.some((l) => l.msg === "recorded the delivery outcomes the database had refused")).toBe(true);
  });

  it("releases a claim whose owner is gone once its lease ends and delivers it once, while running", async () => {
    const files = tempDatabase();
    const { queue, clock, reads } = createQueue({ db: files.db, delayMs: 0, leaseMs: 60_000 });
    queue.enqueue([request("/data/TV/Show/Season 1")]);
    // Another process claimed it and died without recording anything.
    const ghost = new ScanQueue({
      db: files.reopen(),
      clock,
      targets: ["plex"],
      delayMs: 0,
      logger: silentLogger(),
      recover: false,
      owner: "ghost",
      leaseMs: 60_000,
    });
    expect(ghost.claimDue("plex", 1)).toHaveLength(1);
    const target = recordingTarget(clock);
    startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger() });
    await advanceInSteps(clock, 59_000, 1_000);
    expect(target.scans).toEqual([]);
    await advanceInSteps(clock, 40_000, 1_000);
    expect(target.scans.map((s) => s.folder)).toEqual(["/data/TV/Show/Season 1"]);
    expect(reads.recent(1)[0]?.state).toBe("done");
  });

  it("keeps renewing the lease of a delivery that takes longer than the lease", async () => {
    const { queue, clock, reads } = createQueue({ delayMs: 0, leaseMs: 60_000 });
    const target = recordingTarget(clock);
    let finish: () => void = () => undefined;
    target.behaviour = () => new Promise<void>((resolve) => (finish = resolve));
    startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger() });
    queue.enqueue([request("/data/TV/Show/Season 1")]);
    await advanceInSteps(clock, 5 * 60_000, 5_000);
    expect(queue.releaseExpiredLeases()).toEqual([]);
    finish();
    await advance(clock, 0);
    expect(target.scans).toHaveLength(1);
    expect(reads.recent(1)[0]?.state).toBe("done");
  });

  it("does not let a released claim's late answer overwrite the new owner's claim", () => {
    const files = tempDatabase();
    const { queue: a, clock, reads } = createQueue({ db: files.db, delayMs: 0, owner: "a", leaseMs: 1_000 });
    const b = new ScanQueue({
      db: files.reopen(),
      clock,
      targets: ["plex"],
      delayMs: 0,
      logger: silentLogger(),
      recover: false,
      owner: "b",
    });
    a.enqueue([request("/data/TV/Show")]);
    const [job] = a.claimDue("plex", 1);
    clock.advance(2_000);
    expect(b.releaseExpiredLeases()).toHaveLength(1);
    expect(b.claimDue("plex", 1)).toHaveLength(1);
    expect(a.recordDone(job!, [])).toBe(false);
    expect(reads.listPending()[0]?.state).toBe("delivering");
  });
});
