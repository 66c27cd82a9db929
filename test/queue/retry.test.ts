import { describe, expect, it } from "vitest";
import { TargetAuthError, TargetFatalError, TargetUnavailableError } from "../../src/domain.js";
import { silentLogger } from "../../src/lib/logger.js";
import { startDelivery } from "../../src/delivery/scheduler.js";
import { advance, advanceInSteps, capturingLogger, createQueue, recordingTarget, request, deliveryTargetOf } from "./helpers.js";

const backoff = { baseMs: 1_000, factor: 2, maxMs: 8_000 };

describe("retries", () => {
  function failingSetup(error: () => Error, failures: number, logger = silentLogger()) {
    const { queue, clock, reads } = createQueue({ delayMs: 0 });
    const target = recordingTarget(clock);
    const attempts: number[] = [];
    target.behaviour = () => {
      attempts.push(clock.now());
      if (attempts.length <= failures) throw error();
    };
    const delivery = startDelivery({
      queue,
      targets: [target].map(deliveryTargetOf),
      clock,
      logger,
      random: () => 0.5,
      policy: { backoff },
    });
    return { queue, clock, reads, target, attempts, delivery };
  }

  it("retries an unavailable target with exponential backoff and the injected jitter", async () => {
    const { queue, clock, target, attempts, reads } = failingSetup(() => new TargetUnavailableError("503 Service Unavailable"), 3);
    const start = clock.now();
    queue.enqueue([request("/data/TV/Show")]);
    await advance(clock, 0);
    await advanceInSteps(clock, 60_000);
    // random 0.5 gives three quarters of each step: 750, 1500, 3000 ms.
    expect(attempts.map((t) => t - start)).toEqual([0, 750, 2_250, 5_250]);
    expect(target.scans).toHaveLength(1);
    expect(reads.recent(1)[0]?.deliveries[0]).toMatchObject({ state: "done", attempts: 4 });
  });

  it("keeps scans and retries slowly when the target refuses the credentials, logging once", async () => {
    const { logger, lines } = capturingLogger();
    const { queue, clock, target, attempts, reads } = failingSetup(() => new TargetAuthError("401 Unauthorized"), 2, logger);
    queue.enqueue([request("/data/TV/Show")]);
    await advance(clock, 0);
    queue.enqueue([request("/data/Movies/Film")]);
    await advanceInSteps(clock, 60_000, 1_000);
    // Held: the second scan is not even tried while the credentials are refused.
    expect(attempts).toHaveLength(1);
    expect(reads.listPending().map((s) => s.deliveries[0]?.lastError ?? null)).toEqual(["TargetAuthError: 401 Unauthorized", null]);
    await advanceInSteps(clock, 15 * 60_000, 1_000);
    expect(attempts).toHaveLength(3); // both tried; the first of the two is refused again
    await advanceInSteps(clock, 15 * 60_000, 1_000);
    expect(target.scans.map((s) => s.folder).sort()).toEqual(["/data/Movies/Film", "/data/TV/Show"]);
    const errors = lines.filter((l) => l.level === 50);
    expect(errors).toHaveLength(1);
    expect(String(errors[0]?.msg)).toMatch(/refused our credentials/);
    expect(lines.some((l) => /accepts scans again/.test(String(l.msg)))).toBe(true);
  });

  it("marks a scan failed at once when the target says it can never succeed", async () => {
    const { queue, clock, attempts, reads } = failingSetup(() => new TargetFatalError("400 Bad Request"), 99);
    queue.enqueue([request("/data/TV/Show")]);
    await advance(clock, 60_000);
    expect(attempts).toHaveLength(1);
    expect(queue.countPending()).toBe(0);
    expect(reads.listFailed()).toMatchObject([
      { folder: "/data/TV/Show", state: "failed", deliveries: [{ state: "failed", lastError: "TargetFatalError: 400 Bad Request" }] },
    ]);
  });

  it("skips a target that has no library for the folder, and fails the scan when no target has one", async () => {
    const { queue, clock, reads } = createQueue({ delayMs: 0 });
    const plex = recordingTarget(clock);
    startDelivery({ queue, targets: [plex].map(deliveryTargetOf), clock, logger: silentLogger(), random: () => 0, policy: { backoff } });
    queue.enqueue([request("/elsewhere/Show")]);
    await advance(clock, 0);
    const [failed] = reads.listFailed();
    expect(failed?.state).toBe("failed");
    expect(failed?.deliveries[0]).toMatchObject({ attempts: 1, state: "skipped" });
    expect(failed?.deliveries[0]?.lastError).toBe("no library of plex holds /elsewhere/Show (locations: TV=/data/TV, Movies=/data/Movies)");
    expect(plex.scans).toEqual([]);
  });

  it("gives up after the maximum age and keeps the scan visible as failed", async () => {
    const { queue, clock, reads } = createQueue({ delayMs: 0 });
    const plex = recordingTarget(clock);
    plex.behaviour = () => {
      throw new TargetUnavailableError("connect ECONNREFUSED 127.0.0.1:32400");
    };
    startDelivery({ queue, targets: [plex].map(deliveryTargetOf), clock, logger: silentLogger(), policy: { maxAgeMs: 60 * 60_000 } });
    queue.enqueue([request("/data/TV/Show")]);
    await advanceInSteps(clock, 59 * 60_000, 60_000);
    expect(queue.countPending()).toBe(1);
    await advanceInSteps(clock, 60_000, 60_000);
    expect(queue.countPending()).toBe(0);
    const [failed] = reads.listFailed();
    expect(failed?.folder).toBe("/data/TV/Show");
    expect(failed?.deliveries[0]?.lastError).toMatch(
      /^gave up: not delivered within 1 h of the first request; last error: TargetUnavailableError: connect ECONNREFUSED/,
    );
  });

  it("merges requests that arrive during an outage into the waiting scan, so each folder is scanned once", async () => {
    const { queue, clock, target, attempts } = failingSetup(() => new TargetUnavailableError("503"), 4);
    queue.enqueue([request("/data/TV/Show/Season 1")]);
    await advance(clock, 0);
    expect(queue.enqueue([request("/data/TV/Show/Season 1")]).queued).toEqual(["/data/TV/Show/Season 1"]);
    expect(queue.enqueue([request("/data/TV/Show")]).queued).toEqual(["/data/TV/Show"]);
    expect(queue.countPending()).toBe(1);
    await advanceInSteps(clock, 120_000);
    expect(attempts.length).toBe(5);
    expect(target.scans.map((s) => s.folder)).toEqual(["/data/TV/Show"]);
  });
});
