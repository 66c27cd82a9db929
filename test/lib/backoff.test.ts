import { describe, expect, it } from "vitest";
import { DEFAULT_POLICY as NOTIFY_POLICY } from "../../src/notify/channel.js";
import { backoffDelay } from "../../src/lib/backoff.js";

describe("backoffDelay", () => {
  const doubling = { baseMs: 1_000, factor: 2, maxMs: 8_000 };

  it("doubles from the base up to the cap, jittered within the upper half (the queue's equal jitter)", () => {
    const equal = { ...doubling, jitter: "equal" as const };
    expect([1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, equal, () => 0))).toEqual([500, 1_000, 2_000, 4_000, 4_000, 4_000]);
    expect([1, 2, 5].map((n) => backoffDelay(n, equal, () => 0.999_999))).toEqual([1_000, 2_000, 8_000]);
  });

  it("adds at most the given jitter on top of the capped wait (Google's advice)", () => {
    const added = { ...doubling, jitter: { addUpToMs: 1_000 } };
    expect([1, 4, 9].map((n) => backoffDelay(n, added, () => 0))).toEqual([1_000, 8_000, 8_000]);
    expect(backoffDelay(1, added, () => 0.999)).toBe(1_999);
  });

  it("gives the wait as computed without jitter, and without a cap when maxMs is Infinity (the notifications)", () => {
    expect([1, 2, 3, 4].map((n) => NOTIFY_POLICY.backoffMs(n))).toEqual([10_000, 30_000, 90_000, 270_000]);
    expect(backoffDelay(2, doubling, () => 0.5)).toBe(2_000);
  });
});
