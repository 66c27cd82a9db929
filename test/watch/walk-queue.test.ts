import path from "node:path";
import { describe, expect, it } from "vitest";
import { WalkQueue } from "../../src/watch/walk-queue.js";

/** A queue whose folders are entered when the test says so; records the order. */
function manualQueue(concurrency = 1) {
  const entered: Array<[string, { report: boolean }]> = [];
  const finish: Array<() => void> = [];
  const queue = new WalkQueue<{ report: boolean }>(
    concurrency,
    (dir, job) => {
      entered.push([dir, { ...job }]);
      return new Promise<void>((resolve) => finish.push(resolve));
    },
    (waiting, added) => {
      waiting.report ||= added.report;
    },
  );
  const finishNext = async () => {
    finish.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { queue, entered, finishNext };
}

describe("the walk's queue", () => {
  it("enters folders in arrival order, a few at a time, once each, merging a second add", async () => {
    const { queue, entered, finishNext } = manualQueue(2);
    for (const dir of ["/a", "/b", "/c", "/d"]) queue.add(dir, { report: false });
    queue.add("/c", { report: true });
    expect(entered.map(([dir]) => dir)).toEqual(["/a", "/b"]);
    await finishNext();
    await finishNext();
    expect(entered).toEqual([
      ["/a", { report: false }],
      ["/b", { report: false }],
      ["/c", { report: true }],
      ["/d", { report: false }],
    ]);
  });

  it("forgets a dropped folder, and with tree everything waiting under it", async () => {
    const { queue, entered, finishNext } = manualQueue(1);
    for (const dir of ["/busy", "/tv/Show", "/tv/Show/S1", "/tv/Show 2", "/tv/Other"]) queue.add(dir, { report: false });
    queue.drop("/tv/Other");
    queue.drop(path.join("/tv", "Show"), true);
    for (let i = 0; i < 3; i++) await finishNext();
    expect(entered.map(([dir]) => dir)).toEqual(["/busy", "/tv/Show 2"]);
  });

  it("says it is idle once nothing waits or runs, and at once when closed", async () => {
    const { queue, finishNext } = manualQueue(1);
    queue.add("/a", { report: false });
    queue.add("/b", { report: false });
    let idle = false;
    void queue.whenIdle().then(() => (idle = true));
    await finishNext();
    expect(idle).toBe(false);
    await finishNext();
    expect(idle).toBe(true);

    queue.add("/c", { report: false });
    let closedIdle = false;
    void queue.whenIdle().then(() => (closedIdle = true));
    queue.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(closedIdle).toBe(true);
  });
});
