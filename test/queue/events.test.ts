import { describe, expect, it } from "vitest";
import type { QueueEvent } from "../../src/queue/events.js";
import type { DeliveryJob } from "../../src/queue/types.js";
import { createQueue, request } from "./helpers.js";

function listen() {
  const { queue, clock, db } = createQueue({ targets: ["plex"] });
  const heard: Array<{ event: QueueEvent; inTransaction: boolean; pending: number }> = [];
  queue.subscribe((event) => heard.push({ event, inTransaction: db.inTransaction, pending: queue.countPending() }));
  return { queue, clock, db, heard, types: () => heard.map((h) => h.event.type) };
}

describe("the queue's events", () => {
  it("tells an enqueue after its commit, with the due time the scheduler arms for", () => {
    const { queue, clock, heard } = listen();
    queue.enqueue([request("/data/TV/Lost")]);
    expect(heard).toEqual([
      {
        event: { type: "enqueued", at: clock.now(), dueAt: clock.now() + 10_000, queued: ["/data/TV/Lost"], covered: [] },
        inTransaction: false,
        pending: 1,
      },
    ]);
  });

  it("holds the events of a batch until the batch commits", () => {
    const { queue, heard } = listen();
    queue.batch(() => {
      queue.enqueue([request("/data/TV/Lost")]);
      queue.enqueue([request("/data/TV/Fringe")]);
      expect(heard).toEqual([]);
    });
    expect(heard.map((h) => [h.event.type, h.inTransaction, h.pending])).toEqual([
      ["enqueued", false, 2],
      ["enqueued", false, 2],
    ]);
  });

  it("tells nothing of a batch that rolled back", () => {
    const { queue, heard } = listen();
    expect(() =>
      queue.batch(() => {
        queue.enqueue([request("/data/TV/Lost")]);
        throw new Error("disk I/O error");
      }),
    ).toThrow("disk I/O error");
    expect(queue.countPending()).toBe(0);
    expect(heard).toEqual([]);
  });

  it("tells a claim and its recorded outcome, and nothing of an outcome refused because the claim was lost", () => {
    const { queue, clock, types, heard } = listen();
    queue.enqueue([request("/data/TV/Lost"), request("/data/TV/Fringe")]);
    clock.advance(10_000);
    const [lost, fringe] = queue.claimDue("plex", 2) as [DeliveryJob, DeliveryJob];
    expect(queue.recordFailed({ ...lost, deliveryId: 999 }, "HTTP 400")).toBe(false);
    queue.recordFailed(lost, "HTTP 400");
    queue.recordDelivered(fringe, [{ id: "2", title: "TV" }], true);
    expect(types()).toEqual(["enqueued", "claimed", "delivery-recorded", "delivery-recorded"]);
    const records = heard.flatMap((h) =>
      h.event.type === "delivery-recorded" ? [[h.event.job.folder, h.event.record, h.event.error]] : [],
    );
    expect(records).toEqual([
      ["/data/TV/Lost", "failed", "HTTP 400"],
      ["/data/TV/Fringe", "confirming", undefined],
    ]);
  });

  it("tells a confirmation that ended with its target and folder, and each dashboard action", () => {
    const { queue, clock, heard } = listen();
    queue.enqueue([request("/data/TV/Lost")]);
    clock.advance(10_000);
    for (const job of queue.claimDue("plex", 1)) queue.recordDelivered(job, [{ id: "2", title: "TV" }], true);
    const [row] = queue.listConfirming("plex");
    if (!row) throw new Error("nothing confirming");
    const finish = {
      deliveryId: row.deliveryId,
      scanId: row.scanId,
      state: "unconfirmed" as const,
      detail: "x",
      error: "missing",
      progress: null,
    };
    expect(queue.recordConfirmed([finish])).toBe(1);
    expect(queue.recordConfirmed([finish])).toBe(0);
    expect(queue.retry(row.scanId)).toEqual({ ok: true, id: row.scanId });
    const told = heard.map((h) => h.event).filter((e) => e.type === "confirmation-ended" || e.type === "action");
    expect(told).toEqual([
      {
        type: "confirmation-ended",
        at: clock.now(),
        deliveryId: row.deliveryId,
        scanId: row.scanId,
        target: "plex",
        folder: "/data/TV/Lost",
        state: "unconfirmed",
        error: "missing",
      },
      { type: "action", at: clock.now(), action: "retry", scanId: row.scanId, dueAt: clock.now() },
    ]);
  });

  it("keeps telling the other listeners when one throws", () => {
    const { queue, heard } = listen();
    queue.subscribe(() => {
      throw new Error("broken listener");
    });
    const after: string[] = [];
    queue.subscribe((e) => after.push(e.type));
    queue.enqueue([request("/data/TV/Lost")]);
    expect(heard).toHaveLength(1);
    expect(after).toEqual(["enqueued"]);
  });
});
