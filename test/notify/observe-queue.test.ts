import { describe, expect, it } from "vitest";
import type { NotifyEvent } from "../../src/notify/events.js";
import { observeQueue } from "../../src/notify/observe-queue.js";
import type { DeliveryJob } from "../../src/queue/types.js";
import { createQueue, request } from "../queue/helpers.js";

function setUp() {
  const { queue, clock, reads } = createQueue({ targets: ["plex"] });
  const events: NotifyEvent[] = [];
  const notify = (e: NotifyEvent) => events.push(e);
  observeQueue(queue, notify, clock);
  return { queue, clock, reads, events };
}

describe("scan outcomes heard from the queue's events", () => {
  it("tells of a delivery recorded failed, with its folder, target and error", () => {
    const { queue, clock, events } = setUp();
    queue.enqueue([request("/data/TV/Lost")]);
    clock.advance(10_000);
    const [job] = queue.claimDue("plex", 1);
    expect(queue.recordFailed(job as DeliveryJob, "HTTP 400 from plex")).toBe(true);
    expect(events).toEqual([
      { type: "scan-failed", at: clock.now(), folder: "/data/TV/Lost", target: "plex", error: "HTTP 400 from plex" },
    ]);
    expect(queue.countFailed()).toBe(1);
  });

  it("tells nothing of a write the queue refused (the claim was lost)", () => {
    const { queue, clock, events } = setUp();
    queue.enqueue([request("/data/TV/Lost")]);
    clock.advance(10_000);
    const [job] = queue.claimDue("plex", 1);
    expect(queue.recordFailed({ ...(job as DeliveryJob), deliveryId: 999 }, "HTTP 400 from plex")).toBe(false);
    expect(events).toEqual([]);
  });

  it("tells of scans given up after the maximum age", () => {
    const { queue, clock, events } = setUp();
    queue.enqueue([request("/data/TV/Lost")]);
    clock.advance(25 * 3_600_000);
    queue.expireWaiting(clock.now() - 24 * 3_600_000, "gave up: not delivered within 24 h of the first request");
    expect(events.map((e) => e.type === "scan-failed" && [e.folder, e.error])).toEqual([
      ["/data/TV/Lost", "gave up: not delivered within 24 h of the first request"],
    ]);
  });

  it("tells of a confirmation that ended unconfirmed, with the folder the poll listed", () => {
    const { queue, clock, events, reads } = setUp();
    queue.enqueue([request("/data/TV/Lost"), request("/data/TV/Fringe")]);
    clock.advance(10_000);
    for (const job of queue.claimDue("plex", 2)) queue.recordDelivered(job, [{ id: "2", title: "TV" }], true);
    const rows = queue.listConfirming("plex");
    expect(rows.map((r) => r.folder)).toEqual(["/data/TV/Lost", "/data/TV/Fringe"]);
    const [lost, fringe] = rows;
    const finish = (row: typeof lost, state: "done" | "unconfirmed") => ({
      deliveryId: row?.deliveryId ?? -1,
      scanId: row?.scanId ?? -1,
      state,
      detail: state,
      error: state === "unconfirmed" ? "unconfirmed: files not as expected in Plex; not as expected: /data/TV/Lost/e.mkv" : null,
      progress: { sections: [] },
    });
    expect(queue.recordConfirmed([finish(lost, "unconfirmed"), finish(fringe, "done")])).toBe(2);
    expect(events).toEqual([
      {
        type: "scan-unconfirmed",
        at: clock.now(),
        folder: "/data/TV/Lost",
        target: "plex",
        error: "unconfirmed: files not as expected in Plex; not as expected: /data/TV/Lost/e.mkv",
      },
    ]);
    expect(reads.listUnconfirmed().map((s) => s.folder)).toEqual(["/data/TV/Lost"]);
  });
});
