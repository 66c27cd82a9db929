import { describe, expect, it } from "vitest";
import { TargetUnavailableError } from "../../src/domain.js";
import type { ManualClock } from "../../src/lib/clock.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startDelivery } from "../../src/delivery/scheduler.js";
import { advanceInSteps, createQueue, recordingTarget, request, type RecordingTarget, deliveryTargetOf } from "./helpers.js";

// The figures (#20, item 5): 20 held scans, 4 calls in flight per
// target, the default backoff; every held scan must be delivered within 30 s
// of the server's return. A hung call fails at the client's time-out: 10 s
// for Plex (src/targets/plex/plex-http.ts), 30 s for the other HTTP targets
// (src/http/client.ts).
const SCANS = 20;
const CONCURRENCY = 4;
const REQUEST_TIMEOUTS_MS = [10_000, 30_000];
const WITHIN_MS = 30_000;
// 0 and 0.999 are the two ends of the jitter; 0.5 the middle.
const JITTERS = [0, 0.5, 0.999];

type Outage = (target: RecordingTarget, clock: ManualClock, until: number) => void;

/** A server that does not answer until `until`: a call sent meanwhile fails at the client's time-out, answered never. */
function hangsUntil(timeoutMs: number): Outage {
  return (target, clock, until) => {
    target.behaviour = () => {
      if (clock.now() >= until) return undefined;
      return new Promise<void>((_, reject) => {
        clock.setTimeout(() => reject(new TargetUnavailableError(`did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
    };
  };
}

/** A server that answers 503 at once until `until`. */
function refusesUntil(target: RecordingTarget, clock: ManualClock, until: number): void {
  target.behaviour = () => {
    if (clock.now() < until) throw new TargetUnavailableError("503 Service Unavailable");
  };
}

/** When the held scans fall due, counted from the start of the outage: [ms, scans]. */
type Arrivals = Array<[atMs: number, scans: number]>;

const ALL_WAITING: Arrivals = [[0, SCANS]];
// One scan fails alone, then the rest go out together while the server still hangs: the 8 failures.
const MOST_DURING: Arrivals = [
  [0, 1],
  [20_000, SCANS - 1],
];

/** A queue delivering to one recording target, 4 calls in flight, the backoff's jitter fixed at `random`. */
function deliverAt(random: number) {
  const { queue, clock } = createQueue({ delayMs: 0 });
  const target = recordingTarget(clock);
  const delivery = startDelivery({
    queue,
    targets: [target].map(deliveryTargetOf),
    clock,
    logger: silentLogger(),
    random: () => random,
    policy: { concurrencyPerTarget: CONCURRENCY },
  });
  return { queue, clock, target, delivery };
}

async function heldThroughOutage(outage: Outage, downMs: number, arrivals: Arrivals, random: number) {
  const { queue, clock, target, delivery } = deliverAt(random);
  const start = clock.now();
  outage(target, clock, start + downMs);
  let folder = 0;
  for (const [atMs, scans] of arrivals) {
    await advanceInSteps(clock, start + atMs - clock.now(), 500);
    queue.enqueue(Array.from({ length: scans }, () => request(`/data/TV/Show ${folder++}/Season 1`)));
  }
  await advanceInSteps(clock, start + downMs + 15 * 60_000 - clock.now(), 500);
  await delivery.stop();
  const lastScanAt = Math.max(...target.scans.map((s) => s.at));
  return { delivered: target.scans.length, pending: queue.countPending(), afterReturnMs: lastScanAt - (start + downMs) };
}

describe("a short outage at 4 calls in flight", () => {
  it.each(JITTERS)("delivers every held scan within 30 s after a 50 s hang (jitter %s)", async (random) => {
    for (const [timeoutMs, arrivals] of REQUEST_TIMEOUTS_MS.flatMap((t) => [ALL_WAITING, MOST_DURING].map((a) => [t, a] as const))) {
      const result = await heldThroughOutage(hangsUntil(timeoutMs), 50_000, arrivals, random);
      expect(result).toMatchObject({ delivered: SCANS, pending: 0 });
      expect(result.afterReturnMs).toBeLessThanOrEqual(WITHIN_MS);
    }
  });

  it.each(JITTERS)("delivers every held scan within 30 s after 60 s of 503 (jitter %s)", async (random) => {
    for (const arrivals of [ALL_WAITING, MOST_DURING]) {
      const result = await heldThroughOutage(refusesUntil, 60_000, arrivals, random);
      expect(result).toMatchObject({ delivered: SCANS, pending: 0 });
      expect(result.afterReturnMs).toBeLessThanOrEqual(WITHIN_MS);
    }
  });
});

describe("holding a target that is down", () => {
  function downTarget() {
    const { queue, clock, target, delivery } = deliverAt(0.999);
    const calls: number[] = [];
    let downUntil = Infinity;
    target.behaviour = () => {
      calls.push(clock.now());
      if (clock.now() < downUntil) throw new TargetUnavailableError("503 Service Unavailable");
    };
    return { queue, clock, target, calls, delivery, comeBackAt: (at: number) => (downUntil = at) };
  }

  it("counts calls that failed together as one failed round, then sends one probe at a time", async () => {
    const { queue, clock, calls, delivery } = downTarget();
    queue.enqueue(Array.from({ length: 8 }, (_, i) => request(`/data/TV/Show ${i}`)));
    await advanceInSteps(clock, 1_000, 500);
    expect(calls).toHaveLength(CONCURRENCY);
    expect(delivery.targetStates().plex).toMatchObject({ state: "unavailable", failures: 1 });
    // Jitter 0.999: the first hold is just under 5 s; then one probe, which fails: the second round.
    await advanceInSteps(clock, 5_000, 500);
    expect(calls).toHaveLength(CONCURRENCY + 1);
    expect(delivery.targetStates().plex).toMatchObject({ state: "unavailable", failures: 2 });
    await delivery.stop();
  });

  it("probes at least every 15 s in the first 10 minutes, and delivers a lone scan within 15 s of a 9-minute outage's end", async () => {
    const { queue, clock, target, calls, delivery, comeBackAt } = downTarget();
    const start = clock.now();
    comeBackAt(start + 9 * 60_000);
    queue.enqueue([request("/data/TV/Show")]);
    await advanceInSteps(clock, 12 * 60_000, 500);
    await delivery.stop();
    const gaps = calls.slice(1).map((at, i) => at - (calls[i] as number));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(15_000);
    expect(target.scans).toHaveLength(1);
    expect((target.scans[0]?.at as number) - (start + 9 * 60_000)).toBeLessThanOrEqual(15_000);
  });

  it("slows the probes to the backoff's cap once the outage has lasted 10 minutes", async () => {
    const { queue, clock, calls, delivery } = downTarget();
    queue.enqueue([request("/data/TV/Show")]);
    await advanceInSteps(clock, 60 * 60_000, 1_000);
    await delivery.stop();
    const late = calls.filter((at) => at > (calls[0] as number) + 20 * 60_000);
    // Probes 5-10 min apart (jitter 0.999: just under 10 min) over the last 40 minutes.
    expect(late.length).toBeGreaterThanOrEqual(3);
    expect(late.length).toBeLessThanOrEqual(5);
  });
});
