import { describe, expect, it } from "vitest";
import { createRescanQueue } from "../../src/delivery/rescans.js";
import { startDelivery, type DeliveryAround } from "../../src/delivery/scheduler.js";
import { silentLogger } from "../../src/lib/logger.js";
import { advance, createQueue, deferred, deliveryTargetOf, flush, recordingTarget, request, TV } from "./helpers.js";

const SEASON = "/data/TV/Show/Season 1";
const ref = { id: TV.id, title: TV.title };

/** The scheduler with the re-scan queue a confirmation driver would use; nothing confirms. */
function rig(options: { concurrency?: number; anchorsOk?: () => boolean } = {}) {
  const { queue, clock } = createQueue({ delayMs: 0 });
  const target = recordingTarget(clock);
  const rescans = createRescanQueue();
  const around: DeliveryAround = { confirms: () => false, before: async () => {}, rescans };
  const anchors = options.anchorsOk && { check: async () => ({ ok: (options.anchorsOk as () => boolean)() }) };
  const delivery = startDelivery({
    queue,
    targets: [deliveryTargetOf(target)],
    clock,
    logger: silentLogger(),
    around,
    policy: { concurrencyPerTarget: options.concurrency ?? 2 },
    ...(anchors ? { anchors } : {}),
  });
  return { queue, clock, target, rescans, delivery };
}

/** The rig with one slot, held by a delivery whose scan answers once `slow` resolves. */
async function busyRig() {
  const r = rig({ concurrency: 1 });
  const slow = deferred();
  r.target.behaviour = () => slow.promise;
  r.queue.enqueue([request(SEASON)]);
  await advance(r.clock, 0);
  return { ...r, slow };
}

describe("a confirmation's re-scan, sent by the scheduler", () => {
  it("scans the folder again in the one library asked, through deliver.ts", async () => {
    const { target, rescans, delivery } = rig();
    const outcome = await rescans.request({ target: "plex", folder: SEASON, library: ref });
    expect(outcome).toEqual({ kind: "done", libraries: [ref] });
    expect(target.scans.map((s) => [s.folder, s.library])).toEqual([[SEASON, TV.title]]);
    await delivery.stop();
  });

  it("sends nothing and answers held while an anchor is missing", async () => {
    const { target, rescans, delivery } = rig({ anchorsOk: () => false });
    expect(await rescans.request({ target: "plex", folder: SEASON, library: ref })).toEqual({ kind: "held" });
    expect(target.scans).toEqual([]);
    await delivery.stop();
  });

  it("waits for a free slot of its target: a delivery in flight holds the only one", async () => {
    const { target, rescans, delivery, slow } = await busyRig();
    target.behaviour = () => undefined;
    const rescan = rescans.request({ target: "plex", folder: SEASON, library: ref });
    await flush();
    expect(target.scans).toEqual([]);
    slow.resolve();
    expect(await rescan).toMatchObject({ kind: "done" });
    expect(target.scans).toHaveLength(2);
    await delivery.stop();
  });

  it("ends a re-scan still queued when delivery stops, unsent", async () => {
    const { rescans, delivery, slow } = await busyRig();
    const rescan = rescans.request({ target: "plex", folder: SEASON, library: ref });
    const stopped = delivery.stop(1_000);
    expect(await rescan).toMatchObject({ kind: "unavailable" });
    slow.resolve();
    await stopped;
    expect(await rescans.request({ target: "plex", folder: SEASON, library: ref })).toMatchObject({ kind: "unavailable" });
  });
});
