import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/metrics/metrics.js";
import { observeQueue } from "../../src/metrics/observe-queue.js";
import { startHarness } from "../drive/harness.js";
import { parseExposition, value } from "../helpers/prometheus.js";
import { createQueue, request } from "../queue/helpers.js";

const noSources = { queueDepth: () => ({}), targets: () => ({}) };

describe("metrics of what happens after the scan and of the drive", () => {
  it("count confirmed and unconfirmed scans per target, and the time to confirmed", async () => {
    const metrics = createMetrics(noSources);
    const { queue, clock } = createQueue({ targets: ["plex"] });
    observeQueue(queue, metrics);
    queue.enqueue([request("/data/TV/Lost"), request("/data/TV/Fringe")]);
    clock.advance(10_000);
    for (const job of queue.claimDue("plex", 2)) queue.recordDelivered(job, [{ id: "2", title: "TV" }], true);
    const [lost, fringe] = queue.listConfirming("plex");
    const finish = (row: typeof lost, state: "done" | "unconfirmed", confirmedAfterMs?: number) => ({
      deliveryId: row?.deliveryId ?? -1,
      scanId: row?.scanId ?? -1,
      state,
      detail: state,
      error: state === "unconfirmed" ? "not as expected: /data/TV/Lost/e.mkv" : null,
      progress: { sections: [], ...(confirmedAfterMs === undefined ? {} : { confirmedAfterMs }) },
    });
    expect(queue.recordConfirmed([finish(lost, "unconfirmed"), finish(fringe, "done", 12_000)])).toBe(2);
    const { samples, types } = parseExposition(await metrics.render());
    expect(types.get("scanarr_confirmations_total")).toBe("counter");
    expect(value(samples, "scanarr_confirmations_total", { target: "plex", outcome: "confirmed" })).toBe(1);
    expect(value(samples, "scanarr_confirmations_total", { target: "plex", outcome: "unconfirmed" })).toBe(1);
    expect(value(samples, "scanarr_request_to_confirmed_seconds_count", { target: "plex" })).toBe(1);
    expect(value(samples, "scanarr_request_to_confirmed_seconds_sum", { target: "plex" })).toBe(12);
  });

  it("count drive polls by outcome", async () => {
    const metrics = createMetrics(noSources);
    const h = await startHarness(undefined, undefined, undefined, metrics.drivePoll);
    try {
      await h.poll();
      const tokens = [...h.fake.accessTokens];
      h.fake.accessTokens.clear();
      await h.poll();
      for (const t of tokens) h.fake.accessTokens.add(t);
      await h.poll();
    } finally {
      await h.close();
    }
    const { samples } = parseExposition(await metrics.render());
    expect(value(samples, "scanarr_drive_polls_total", { outcome: "ok" })).toBe(2);
    expect(value(samples, "scanarr_drive_polls_total", { outcome: "failed" })).toBe(1);
  });
});
