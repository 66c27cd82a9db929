import { describe, expect, it } from "vitest";
import { createQueue, request } from "./helpers.js";

const folders = (reads: ReturnType<typeof createQueue>["reads"]) =>
  reads
    .listPending()
    .map((s) => s.folder)
    .sort();

describe("coalescing", () => {
  it("keeps one pending scan per folder and counts the requests it stands for", () => {
    const { queue, reads } = createQueue();
    expect(queue.enqueue([request("/data/TV/Show/Season 1")])).toEqual({ queued: ["/data/TV/Show/Season 1"], covered: [] });
    expect(queue.enqueue([request("/data/TV/Show/Season 1/")])).toEqual({ queued: ["/data/TV/Show/Season 1"], covered: [] });
    const [scan] = reads.listPending();
    expect(queue.countPending()).toBe(1);
    expect(scan?.requests).toBe(2);
    expect(scan?.deliveries).toMatchObject([{ target: "plex", state: "pending", attempts: 0 }]);
  });

  it("reports a folder inside a pending folder as covered and queues nothing new", () => {
    const { queue, reads } = createQueue();
    queue.enqueue([request("/data/TV/Show")]);
    const outcome = queue.enqueue([request("/data/TV/Show/Season 2")]);
    expect(outcome).toEqual({ queued: [], covered: ["/data/TV/Show/Season 2"] });
    expect(folders(reads)).toEqual(["/data/TV/Show"]);
  });

  it("absorbs pending children into a parent request, keeping their first-request time", () => {
    const { queue, clock, reads } = createQueue();
    const first = clock.now();
    queue.enqueue([request("/data/TV/Show/Season 1"), request("/data/TV/Show/Season 2")]);
    clock.advance(5_000);
    expect(queue.enqueue([request("/data/TV/Show")])).toEqual({ queued: ["/data/TV/Show"], covered: [] });
    const pending = reads.listPending();
    expect(pending.map((s) => s.folder)).toEqual(["/data/TV/Show"]);
    expect(pending[0]).toMatchObject({ firstRequestedAt: first, requests: 3 });
  });

  it("does not confuse /TV/Show with /TV/Show 2 in either direction", () => {
    const { queue, reads } = createQueue();
    queue.enqueue([request("/data/TV/Show 2/Season 1")]);
    expect(queue.enqueue([request("/data/TV/Show")]).queued).toEqual(["/data/TV/Show"]);
    expect(queue.enqueue([request("/data/TV/Show 2")]).queued).toEqual(["/data/TV/Show 2"]);
    expect(folders(reads)).toEqual(["/data/TV/Show", "/data/TV/Show 2"]);
  });

  it("coalesces Windows media-server paths by backslash components", () => {
    const { queue, reads } = createQueue();
    queue.enqueue([request("D:\\Media\\TV\\Show\\Season 1"), request("D:\\Media\\TV\\Show 2")]);
    expect(queue.enqueue([request("D:\\Media\\TV\\Show")]).queued).toEqual(["D:\\Media\\TV\\Show"]);
    expect(queue.enqueue([request("D:\\Media\\TV\\Show\\Season 3")]).covered).toEqual(["D:\\Media\\TV\\Show\\Season 3"]);
    expect(folders(reads)).toEqual(["D:\\Media\\TV\\Show", "D:\\Media\\TV\\Show 2"]);
  });

  it("lets a root request absorb everything below it", () => {
    const { queue, reads } = createQueue();
    queue.enqueue([request("/data/TV/A"), request("/data/Movies/B")]);
    queue.enqueue([request("/")]);
    expect(folders(reads)).toEqual(["/"]);
  });

  it("commits nothing when one request of a batch has an invalid folder", () => {
    const { queue } = createQueue();
    expect(() => queue.enqueue([request("/data/TV/A"), request("relative/path")])).toThrow(/absolute/);
    expect(queue.countPending()).toBe(0);
  });

  it("answers within a batch: a later child of an earlier parent is covered", () => {
    const { queue } = createQueue();
    const outcome = queue.enqueue([request("/data/TV/Show"), request("/data/TV/Show/Season 1")]);
    expect(outcome).toEqual({ queued: ["/data/TV/Show"], covered: ["/data/TV/Show/Season 1"] });
  });
});
