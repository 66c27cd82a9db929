import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TargetUnavailableError } from "../../src/domain.js";
import { ManualClock } from "../../src/lib/clock.js";
import { silentLogger } from "../../src/lib/logger.js";
import { isWithin } from "../../src/paths/index.js";
import { startDelivery } from "../../src/delivery/scheduler.js";
import { advanceInSteps, createQueue, recordingTarget, request, deliveryTargetOf } from "./helpers.js";

// Few names, so random folders nest, repeat and share prefixes ("a" and "a b").
const folderArb = fc.array(fc.constantFrom("a", "b", "a b", "c"), { minLength: 1, maxLength: 4 }).map((parts) => `/m/${parts.join("/")}`);
const requestsArb = fc.array(fc.record({ folder: folderArb, gapMs: fc.integer({ min: 0, max: 3_000 }) }), { minLength: 1, maxLength: 40 });
const LIBRARY = { id: "1", title: "Media", type: "movie", locations: ["/m"] };

function setup() {
  const clock = new ManualClock();
  const { queue } = createQueue({ clock, delayMs: 10_000 });
  const target = recordingTarget(clock);
  target.libraries = [LIBRARY];
  return { clock, queue, target };
}

describe("coalescing properties", () => {
  it("covers every requested folder by exactly one delivered scan and scans no folder twice", async () => {
    await fc.assert(
      fc.asyncProperty(requestsArb, async (requests) => {
        const { clock, queue, target } = setup();
        for (const r of requests) {
          queue.enqueue([request(r.folder)]);
          clock.advance(r.gapMs);
        }
        startDelivery({ queue, targets: [target].map(deliveryTargetOf), clock, logger: silentLogger() });
        await advanceInSteps(clock, 400_000, 10_000);
        const scanned = target.scans.map((s) => s.folder);
        expect(queue.countPending()).toBe(0);
        expect(new Set(scanned).size).toBe(scanned.length);
        for (const r of requests) expect(scanned.filter((f) => isWithin(f, r.folder))).toHaveLength(1);
      }),
      { numRuns: 60 },
    );
  });

  it("delivers every request after it arrived, through outages, with no more scans than requests", async () => {
    // Each cycle of answers holds at least one success, so every outage ends.
    const outagesArb = fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }).filter((a) => a.includes(false));
    await fc.assert(
      fc.asyncProperty(requestsArb, outagesArb, async (requests, outages) => {
        const { clock, queue, target } = setup();
        let call = 0;
        target.behaviour = () => {
          if (outages[call++ % outages.length]) throw new TargetUnavailableError("503");
        };
        startDelivery({
          queue,
          targets: [target].map(deliveryTargetOf),
          clock,
          logger: silentLogger(),
          policy: { backoff: { baseMs: 1_000, factor: 2, maxMs: 8_000 } },
        });
        const times: number[] = [];
        for (const r of requests) {
          times.push(clock.now());
          queue.enqueue([request(r.folder)]);
          await advanceInSteps(clock, r.gapMs, 500);
        }
        // Long enough for any run of failures (at most 20 in a row, 8 s apart).
        await advanceInSteps(clock, 600_000, 2_000);
        expect(queue.countPending()).toBe(0);
        expect(target.scans.length).toBeLessThanOrEqual(requests.length);
        requests.forEach((r, i) => {
          const covering = target.scans.filter((s) => isWithin(s.folder, r.folder) && s.at >= (times[i] as number));
          expect(covering.length).toBeGreaterThanOrEqual(1);
        });
      }),
      { numRuns: 40 },
    );
  });
});
