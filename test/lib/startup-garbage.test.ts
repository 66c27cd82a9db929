import { constants, PerformanceObserver } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { collectStartupGarbageSoon, loopBusySinceAsked } from "../../src/lib/startup-garbage.js";
import { waitFor } from "../helpers/service.js";

describe("collectStartupGarbageSoon", () => {
  it("runs one full collection after the delay and leaves gc unexposed", async () => {
    const majors: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors.push(entry.startTime);
      }
    });
    observer.observe({ entryTypes: ["gc"] });
    const scheduled = performance.now();
    try {
      collectStartupGarbageSoon(50, { busy: () => false });
      expect(typeof (globalThis as { gc?: unknown }).gc).toBe("undefined");
      await waitFor(() => majors.some((at) => at >= scheduled + 50), 5_000, "a full collection after the delay");
    } finally {
      observer.disconnect();
    }
  });

  it("waits while the event loop is busy, and collects once it is quiet", async () => {
    const looks: number[] = [];
    const collections: number[] = [];
    // Busy at the first two looks, quiet from the third.
    const busy = () => looks.push(looks.length + 1) <= 2;
    collectStartupGarbageSoon(20, { busy, gc: () => collections.push(looks.length) });
    await waitFor(() => collections.length > 0, 5_000, "a collection once the loop is quiet");
    expect(collections[0]).toBe(3);
  });

  it("tells a busy event loop from an idle one", () => {
    const busy = loopBusySinceAsked();
    const end = performance.now() + 30;
    while (performance.now() < end) {
      // Running code the whole time.
    }
    expect(busy()).toBe(true);
  });
});
