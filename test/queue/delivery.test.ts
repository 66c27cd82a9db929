import { describe, expect, it } from "vitest";
import { TargetUnavailableError, type Library } from "../../src/domain.js";
import { startDelivery } from "../../src/delivery/scheduler.js";
import { silentLogger } from "../../src/lib/logger.js";
import { advance, createQueue, deferred, flush, recordingTarget, request, deliveryTargetOf } from "./helpers.js";

function setup(options: Parameters<typeof createQueue>[0] = {}) {
  const { queue, clock, db, reads } = createQueue(options);
  const target = recordingTarget(clock);
  const delivery = startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger(), random: () => 0.5 });
  return { queue, clock, db, reads, target, delivery };
}

describe("delivery", () => {
  it("scans a folder once its debounce delay has passed, in every library holding it", async () => {
    const { queue, clock, target, reads } = setup();
    const start = clock.now();
    queue.enqueue([request("/data/TV/Show/Season 1")]);
    await advance(clock, 9_999);
    expect(target.scans).toEqual([]);
    await advance(clock, 1);
    expect(target.scans).toEqual([{ folder: "/data/TV/Show/Season 1", library: "TV", at: start + 10_000 }]);
    expect(queue.countPending()).toBe(0);
    expect(reads.recent(1)[0]).toMatchObject({ state: "done", deliveries: [{ state: "done", libraries: [{ id: "2", title: "TV" }] }] });
  });

  it("pushes the scan back by a full delay on each new request (trailing debounce)", async () => {
    const { queue, clock, target } = setup();
    const start = clock.now();
    queue.enqueue([request("/data/TV/Show")]);
    await advance(clock, 8_000);
    queue.enqueue([request("/data/TV/Show/Season 1")]);
    await advance(clock, 8_000);
    expect(target.scans).toEqual([]);
    await advance(clock, 2_000);
    expect(target.scans.map((s) => [s.folder, s.at])).toEqual([["/data/TV/Show", start + 18_000]]);
  });

  it("still scans a busy folder when the debounce reaches its cap", async () => {
    const { queue, clock, target } = setup({ maxWaitMs: 30_000 });
    const start = clock.now();
    for (let i = 0; i < 12; i++) {
      queue.enqueue([request(`/data/TV/Show/Season 1`)]);
      await advance(clock, 5_000);
    }
    // Requests every 5 s: the first scan waits 30 s (the cap), the next cycle starts with the request at 30 s.
    expect(target.scans.map((s) => s.at)).toEqual([start + 30_000, start + 60_000]);
  });

  it("delivers due scans by priority, lower number first, unmatched folders ranking as 0", async () => {
    const music: Library = { id: "3", title: "Music", type: "artist", locations: ["/data/Music"] };
    const { queue, clock, reads } = createQueue({ priorities: { "1": ["/movies/"], "2": ["/TV/"] } });
    const target = recordingTarget(clock);
    target.libraries.push(music);
    const blocker = deferred();
    target.behaviour = (folder) => (folder === "/data/TV/Blocker" ? blocker.promise : undefined);
    startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger(), policy: { concurrencyPerTarget: 1 } });
    queue.enqueue([request("/data/TV/Blocker")]);
    await advance(clock, 1_000);
    queue.enqueue([request("/data/TV/A")]);
    await advance(clock, 1_000);
    queue.enqueue([request("/data/Movies/B")]);
    await advance(clock, 1_000);
    queue.enqueue([request("/data/Music/C")]);
    expect(reads.listPending().map((s) => [s.folder, s.priority])).toEqual([
      ["/data/Music/C", 0],
      ["/data/Movies/B", 1],
      ["/data/TV/Blocker", 2],
      ["/data/TV/A", 2],
    ]);
    await advance(clock, 20_000); // all due; the single slot is held by the blocker
    blocker.resolve();
    await flush();
    expect(target.scans.map((s) => s.folder)).toEqual(["/data/TV/Blocker", "/data/Music/C", "/data/Movies/B", "/data/TV/A"]);
  });

  it("records each target's delivery on its own", async () => {
    const { queue, clock, reads } = createQueue({ targets: ["plex", "plex-4k"] });
    const main = recordingTarget(clock, "plex");
    const fourK = recordingTarget(clock, "plex-4k");
    fourK.behaviour = () => {
      throw new TargetUnavailableError("503 from plex-4k");
    };
    startDelivery({ queue, targets: [main, fourK].map(deliveryTargetOf), clock, logger: silentLogger(), random: () => 0 });
    queue.enqueue([request("/data/Movies/Film (2000)")]);
    await advance(clock, 10_000);
    const [scan] = reads.listPending();
    expect(scan?.deliveries).toMatchObject([
      { target: "plex", state: "done", attempts: 1 },
      { target: "plex-4k", state: "pending", attempts: 1, lastError: "TargetUnavailableError: 503 from plex-4k" },
    ]);
    fourK.behaviour = () => undefined;
    await advance(clock, 60_000);
    expect(fourK.scans.map((s) => s.folder)).toEqual(["/data/Movies/Film (2000)"]);
    expect(main.scans).toHaveLength(1);
    expect(reads.recent(1)[0]?.state).toBe("done");
  });

  it("delivers Windows media-server folders to the library holding them", async () => {
    const { queue, clock, target } = setup();
    target.libraries = [{ id: "7", title: "Series", type: "show", locations: ["D:\\Media\\TV"] }];
    queue.enqueue([request("D:\\Media\\TV\\Show\\Season 1"), request("D:\\Media\\TV\\Show")]);
    await advance(clock, 10_000);
    expect(target.scans.map((s) => [s.folder, s.library])).toEqual([["D:\\Media\\TV\\Show", "Series"]]);
  });

  it.each([
    { concurrency: 3, maxInFlight: undefined, expected: 3 },
    { concurrency: 3, maxInFlight: 1, expected: 1 },
  ])(
    "has at most $expected scans in flight with concurrency $concurrency and a target taking $maxInFlight",
    async ({ concurrency, maxInFlight, expected }) => {
      const { queue, clock, reads } = createQueue();
      const target = Object.assign(recordingTarget(clock), { maxInFlight });
      const gates: Array<() => void> = [];
      let inFlight = 0;
      let most = 0;
      target.behaviour = () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        const gate = deferred();
        gates.push(gate.resolve);
        return gate.promise.then(() => {
          inFlight -= 1;
        });
      };
      startDelivery({
        queue,
        targets: [target].map(deliveryTargetOf),
        clock,
        logger: silentLogger(),
        policy: { concurrencyPerTarget: concurrency },
      });
      queue.enqueue(["A", "B", "C", "D", "E", "F"].map((s) => request(`/data/TV/${s}`)));
      await advance(clock, 10_000);
      expect(inFlight).toBe(expected);
      // Answers that arrive together are recorded together, and the freed slots are filled again.
      while (target.scans.length < 6) {
        const open = gates.splice(0);
        expect(open.length).toBeGreaterThan(0);
        for (const resolve of open) resolve();
        await flush();
      }
      expect(most).toBe(expected);
      expect(queue.countPending()).toBe(0);
      expect(reads.recent(6).map((s) => s.state)).toEqual(Array(6).fill("done"));
    },
  );
});
