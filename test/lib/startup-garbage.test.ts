import { constants, PerformanceObserver } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { collectStartupGarbageSoon } from "../../src/lib/startup-garbage.js";
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
      collectStartupGarbageSoon(50);
      expect(typeof (globalThis as { gc?: unknown }).gc).toBe("undefined");
      await waitFor(() => majors.some((at) => at >= scheduled + 50), 5_000, "a full collection after the delay");
    } finally {
      observer.disconnect();
    }
  });
});
