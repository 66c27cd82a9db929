import { afterEach, describe, expect, it } from "vitest";
import type { QueueEvent } from "../../src/queue/events.js";
import { startDelivery, type DeliveryHandle } from "../../src/delivery/scheduler.js";
import { JellyfinApiClient } from "../../src/targets/jellyfin/api.js";
import { JellyfinTarget } from "../../src/targets/jellyfin/jellyfin-target.js";
import { startFakeJellyfin, type FakeJellyfin } from "../fakes/jellyfin.js";
import { silentLogger } from "../../src/lib/logger.js";
import { createQueue, deliveryTargetOf } from "./helpers.js";

const SEASON = "/media/TV-Shows/Show/Season 1";
const VIDEO = `${SEASON}/Show - S01E01.mkv`;
const RETRY_MS = 10_000;

let jellyfin: FakeJellyfin | undefined;
let delivery: DeliveryHandle | undefined;
afterEach(async () => {
  await delivery?.stop(1_000);
  await jellyfin?.close();
  delivery = undefined;
  jellyfin = undefined;
});

describe("a delivery's item refresh passes the anchor gate", () => {
  it("refreshes no item once the anchor went missing after the scan call, and scans and refreshes once it is back", async () => {
    const server = await startFakeJellyfin();
    jellyfin = server;
    server.addItem(VIDEO);
    server.scans.disk.add(VIDEO);
    const { queue, clock } = createQueue({ targets: ["jellyfin"], delayMs: 0 });
    const api = new JellyfinApiClient({ baseUrl: server.url, token: server.token, urlKey: "TARGETS[0].URL", tokenKey: "TARGETS[0].TOKEN" });
    const target = new JellyfinTarget({ name: "jellyfin", api, clock });
    // The mount drops the moment Jellyfin has the scan (its season folder's refresh): every check after it finds the anchor missing.
    let mountBack = false;
    const refreshed = () => server.items.refreshes.map((r) => r.path);
    const anchors = { check: async () => ({ ok: mountBack || refreshed().length === 0 }) };
    // The attempt's end: its claim given back unsent (held) or its outcome recorded.
    const attemptEnd = () =>
      new Promise<QueueEvent["type"]>((resolve) => {
        const stop = queue.subscribe((event) => {
          if (event.type !== "claim-released" && event.type !== "delivery-recorded") return;
          stop();
          resolve(event.type);
        });
      });

    const first = attemptEnd();
    // A video replaced in place: scan its folder, then refresh its item.
    queue.enqueue([{ folder: SEASON, source: "tdarr", event: "Manual", files: [VIDEO], refresh: true }]);
    delivery = startDelivery({
      queue,
      targets: [target].map(deliveryTargetOf),
      clock,
      logger: silentLogger(),
      anchors,
      anchorRetryMs: RETRY_MS,
    });
    expect(await first).toBe("claim-released");
    expect(refreshed()).toEqual([SEASON]);

    mountBack = true;
    const second = attemptEnd();
    clock.advance(RETRY_MS);
    expect(await second).toBe("delivery-recorded");
    expect(refreshed()).toEqual([SEASON, SEASON, VIDEO]);
  });
});
