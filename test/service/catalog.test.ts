import { describe, expect, it } from "vitest";
import type { Library, Target } from "../../src/domain.js";
import { ManualClock } from "../../src/lib/clock.js";
import { catalogOf, MISS_REFRESH_INTERVAL_MS } from "../../src/service/catalog.js";

const movies: Library = { id: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] };

function countingTarget(): Target & { calls: number } {
  const target = {
    name: "t",
    calls: 0,
    async listLibraries() {
      target.calls += 1;
      return [movies];
    },
    async scan() {},
  };
  return target;
}

describe("catalogOf", () => {
  it("learns the libraries of a target that keeps none itself", async () => {
    const target = countingTarget();
    const catalog = catalogOf(target, new ManualClock());
    await catalog.refreshLibraries();
    expect(catalog.knownLibraries()).toEqual([movies]);
  });

  it("refetches for requests at most once per interval, sharing a fetch in flight", async () => {
    const clock = new ManualClock();
    const target = countingTarget();
    const catalog = catalogOf(target, clock);
    await catalog.refreshLibraries();
    const callsAfterStart = target.calls;
    await Promise.all([catalog.refreshLibraries(), catalog.refreshLibraries(), catalog.refreshLibraries()]);
    expect(target.calls).toBe(callsAfterStart);
    clock.advance(MISS_REFRESH_INTERVAL_MS);
    await Promise.all([catalog.refreshLibraries(), catalog.refreshLibraries()]);
    expect(target.calls).toBe(callsAfterStart + 1);
  });
});
