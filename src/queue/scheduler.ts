import type { Target } from "../domain.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import { computeBackoff } from "./backoff.js";
import { deliverFolder, type DeliveryOutcome } from "./deliver.js";
import { resolvePolicy, type DeliveryPolicy } from "./policy.js";
import type { ScanQueue } from "./scan-queue.js";
import { TargetHealth, type HealthState } from "./target-health.js";
import type { DeliveryJob } from "./types.js";

/** The part of the queue the scheduler drives. */
export type DeliveryQueue = Pick<
  ScanQueue,
  "subscribe" | "claimDue" | "recordDone" | "recordRetry" | "recordFailed" | "expireWaiting" | "nextDueAt" | "oldestWaitingSince"
>;

export interface DeliveryOptions {
  queue: DeliveryQueue;
  targets: Target[];
  clock: Clock;
  logger: Logger;
  /** [0, 1) source for backoff jitter; Math.random by default. */
  random?: () => number;
  policy?: Partial<DeliveryPolicy>;
}

export interface DeliveryHandle {
  /** Stops taking work and waits up to `timeoutMs` (default 10 s) for deliveries in flight. */
  stop(timeoutMs?: number): Promise<void>;
  /** Looks for due work now (after an enqueue, a config change, a test's clock move). */
  wake(): void;
  /** Each target's state (ok, unavailable, misconfigured) and consecutive failures, for /health. */
  targetStates(): Record<string, { state: HealthState; failures: number }>;
}

// Node timers overflow past ~24.8 days; waking hourly at most costs nothing.
const MAX_TIMER_MS = 60 * 60_000;

/** Starts delivering due scans to `targets`; one timer, armed at the earliest due time. */
export function startDelivery(options: DeliveryOptions): DeliveryHandle {
  const { queue, targets, clock, logger } = options;
  const random = options.random ?? Math.random;
  const policy = resolvePolicy(options.policy);
  const health = new Map(targets.map((t) => [t.name, new TargetHealth(t.name, logger)]));
  const inFlight = new Map(targets.map((t) => [t.name, 0]));
  const running = new Set<Promise<void>>();
  let timer: unknown;
  let armedAt = Infinity;
  let stopping = false;
  let detached = false;

  const unsubscribe = queue.subscribe((dueAt) => {
    if (!stopping && dueAt < armedAt) arm(dueAt);
  });

  function arm(at: number): void {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    armedAt = at;
    if (at === Infinity || stopping) return;
    timer = clock.setTimeout(tick, Math.min(MAX_TIMER_MS, Math.max(0, at - clock.now())));
  }

  function tick(): void {
    if (stopping) return;
    const now = clock.now();
    try {
      expireOld(now);
      for (const target of targets) {
        const free = policy.concurrencyPerTarget - (inFlight.get(target.name) ?? 0);
        if (free <= 0 || health.get(target.name)?.isHeld(now)) continue;
        for (const job of queue.claimDue(target.name, free)) start(target, job);
      }
      arm(nextWakeAt());
    } catch (error) {
      // The database is the only thing that can throw here; try again shortly.
      logger.error({ err: error }, "delivery scheduler could not read the queue");
      arm(now + policy.backoff.baseMs);
    }
  }

  function nextWakeAt(): number {
    let at = Infinity;
    for (const target of targets) {
      if ((inFlight.get(target.name) ?? 0) >= policy.concurrencyPerTarget) continue; // a completion re-ticks
      const due = queue.nextDueAt(target.name);
      if (due !== undefined) at = Math.min(at, Math.max(due, health.get(target.name)?.heldUntil ?? 0));
    }
    const oldest = queue.oldestWaitingSince();
    return oldest === undefined ? at : Math.min(at, oldest + policy.maxAgeMs);
  }

  function expireOld(now: number): void {
    const hours = Math.round(policy.maxAgeMs / 3_600_000);
    const reason = `gave up: not delivered within ${hours} h of the first request`;
    const expired = queue.expireWaiting(now - policy.maxAgeMs, reason);
    if (expired.length > 0) {
      logger.warn({ count: expired.length, folders: expired.slice(0, 10).map((e) => e.folder) }, reason);
    }
  }

  function start(target: Target, job: DeliveryJob): void {
    inFlight.set(target.name, (inFlight.get(target.name) ?? 0) + 1);
    const work = deliverFolder(target, job.folder)
      .then((outcome) => {
        if (!detached) record(target, job, outcome);
      })
      .catch((error: unknown) => logger.error({ err: error, folder: job.folder }, "could not record a delivery"))
      .finally(() => {
        inFlight.set(target.name, (inFlight.get(target.name) ?? 1) - 1);
        running.delete(work);
        tick();
      });
    running.add(work);
  }

  function record(target: Target, job: DeliveryJob, outcome: DeliveryOutcome): void {
    const now = clock.now();
    const state = health.get(target.name) as TargetHealth;
    const retryAt = now + computeBackoff(job.attempts + 1, policy.backoff, random);
    const where = { target: target.name, folder: job.folder, attempt: job.attempts + 1 };
    switch (outcome.kind) {
      case "done":
        state.recordSuccess();
        queue.recordDone(job, outcome.libraries);
        logger.info({ ...where, libraries: outcome.libraries.map((l) => l.title) }, "scan delivered");
        return;
      case "unavailable":
        state.recordUnavailable(outcome.error, now + computeBackoff(state.consecutiveFailures + 1, policy.backoff, random));
        queue.recordRetry(job, retryAt, outcome.error, outcome.libraries);
        logger.debug({ ...where, error: outcome.error, retryAt }, "delivery failed, will retry");
        return;
      case "auth":
        state.recordAuthFailure(outcome.error, now + policy.authRetryMs);
        queue.recordRetry(job, now + policy.authRetryMs, outcome.error, outcome.libraries);
        return;
      case "fatal":
        state.recordSuccess();
        queue.recordFailed(job, outcome.error, outcome.libraries);
        logger.warn({ ...where, error: outcome.error }, "scan refused by the target; marked failed");
        return;
      case "no-library":
        state.recordSuccess();
        if (job.attempts + 1 >= policy.noLibraryAttempts) {
          queue.recordFailed(job, outcome.error);
          logger.warn({ ...where, error: outcome.error }, "no library contains the folder; marked failed");
        } else {
          queue.recordRetry(job, retryAt, outcome.error);
          logger.warn({ ...where, error: outcome.error, retryAt }, "no library contains the folder; will retry");
        }
        return;
    }
  }

  async function stop(timeoutMs = 10_000): Promise<void> {
    if (stopping) return;
    stopping = true;
    unsubscribe();
    arm(Infinity);
    if (running.size > 0) {
      let handle: unknown;
      const timeout = new Promise<void>((resolve) => {
        handle = clock.setTimeout(resolve, timeoutMs);
      });
      await Promise.race([Promise.allSettled([...running]), timeout]);
      clock.clearTimeout(handle);
      if (running.size > 0) {
        logger.warn({ inFlight: running.size }, "stopped with deliveries in flight; they resume on the next start");
      }
    }
    // Late answers must not touch a database the caller is about to close.
    detached = true;
  }

  tick();
  const targetStates = () =>
    Object.fromEntries([...health].map(([name, h]) => [name, { state: h.state, failures: h.consecutiveFailures }]));
  return { stop, wake: tick, targetStates };
}
