import { describe, expect, it } from "vitest";
import { silentLogger } from "../../src/lib/logger.js";
import { startDelivery } from "../../src/delivery/scheduler.js";
import { advance, createQueue, deferred, flush, recordingTarget, request, tempDatabase, deliveryTargetOf } from "./helpers.js";
import { ManualClock } from "../../src/lib/clock.js";

describe("stop", () => {
  it("waits for deliveries in flight and records them before resolving", async () => {
    const { queue, clock, reads } = createQueue({ delayMs: 0 });
    const target = recordingTarget(clock);
    const gate = deferred();
    target.behaviour = () => gate.promise;
    const delivery = startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger() });
    queue.enqueue([request("/data/TV/Show")]);
    await advance(clock, 0);
    let stopped = false;
    const stopping = delivery.stop().then(() => (stopped = true));
    await flush();
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(reads.recent(1)[0]).toMatchObject({ state: "done" });
  });

  it("takes no new work once stopped", async () => {
    const { queue, clock } = createQueue({ delayMs: 0 });
    const target = recordingTarget(clock);
    const delivery = startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger() });
    await delivery.stop();
    queue.enqueue([request("/data/TV/Show")]);
    delivery.wake();
    await advance(clock, 60_000);
    expect(target.scans).toEqual([]);
    expect(queue.countPending()).toBe(1);
  });

  it("gives up waiting after its timeout and leaves the delivery to resume on the next start", async () => {
    const files = tempDatabase();
    const clock = new ManualClock();
    const { queue } = createQueue({ db: files.db, clock, delayMs: 0 });
    const target = recordingTarget(clock);
    const hung = deferred();
    target.behaviour = () => hung.promise;
    const delivery = startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger() });
    queue.enqueue([request("/data/TV/Show")]);
    await advance(clock, 0);
    const stopping = delivery.stop(5_000);
    clock.advance(5_000);
    await stopping;
    files.db.close();
    hung.resolve(); // a late answer must not touch the closed database
    await flush();
    const reopened = createQueue({ db: files.reopen(), clock });
    expect(reopened.reads.listPending()[0]?.deliveries[0]).toMatchObject({ state: "pending", attempts: 0 });
  });
});
