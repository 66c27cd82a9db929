import type { Target } from "../domain.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import { deliverFolder, deliveryTargetOf, type DeliveryTarget } from "./deliver.js";
import { dueAtOf } from "../queue/events.js";
import type { AnchorGate } from "./anchor-gate.js";
import { createGates, type AnchorCheck, type FileChecker } from "./gates.js";
import { resolvePolicy, type DeliveryPolicy } from "./policy.js";
import { planOutcome, type Attempt, type OutcomeWrite } from "./record-outcome.js";
import type { ScanQueue } from "../queue/scan-queue.js";
import { TargetHealth, type HealthState } from "./target-health.js";

/** A target as the scheduler sees it; `since` and `error` while it is down or refusing its token. */
export interface TargetStateView {
  state: HealthState;
  failures: number;
  since?: number;
  error?: string | null;
}
import type { DeliveryJob } from "../queue/types.js";
import { createUpkeep } from "./upkeep.js";

/** The part of the queue the scheduler drives. */
export type DeliveryQueue = Pick<
  ScanQueue,
  | "subscribe"
  | "batch"
  | "claimDue"
  | "recordDone"
  | "recordDelivered"
  | "recordRetry"
  | "recordFailed"
  | "expireWaiting"
  | "nextDueAt"
  | "oldestWaitingSince"
  | "renewLeases"
  | "releaseExpiredLeases"
  | "nextLeaseEnd"
  | "recordSkipped"
  | "releaseClaim"
  | "dueFileChecks"
  | "recordFileChecks"
  | "nextFileCheckAt"
>;

export interface DeliveryOptions {
  queue: DeliveryQueue;
  /** Where scans go: bare targets (their own path form, libraries listed each time) or built ones. */
  targets: Array<Target | DeliveryTarget>;
  clock: Clock;
  logger: Logger;
  /** [0, 1) source for backoff jitter; Math.random by default. */
  random?: () => number;
  policy?: Partial<DeliveryPolicy>;
  /** File-exists checks for scans that named files (the queue must have its fileChecks policy). */
  fileChecker?: FileChecker;
  /**
   * Anchors that must be present before anything is delivered: checked before
   * claiming and right before each scan call. Pass the service's one AnchorGate
   * to share its answers with the after-scan work.
   */
  anchors?: AnchorCheck | AnchorGate;
  /** How soon missing anchors are looked for again (default 10 s). */
  anchorRetryMs?: number;
  /** Work before the scan call of some targets, and whether they confirm (src/delivery/after-scan/around-delivery.ts). */
  around?: DeliveryAround;
  /**
   * Whether the database can write (src/queue/storage/storage-watch.ts): while it
   * cannot, nothing new is claimed (an answer it could not record would be
   * delivered twice), and write failures are reported to it. Call `wake` when
   * it writes again.
   */
  storage?: { problem(): string | undefined; report(error: unknown): boolean };
}

/**
 * What runs around one target's scan calls; none of it may throw or hold a
 * delivery up for long. What follows an outcome listens to the queue's events.
 */
export interface DeliveryAround {
  /** Whether accepted deliveries to `target` are recorded 'confirming' (its confirmation driver ends them). */
  confirms(target: string): boolean;
  /** Before the scan call (the before-scan hook); the scan goes out whatever happens here. */
  before(dt: DeliveryTarget, job: DeliveryJob): Promise<void>;
}

export interface DeliveryHandle {
  /** Stops taking work and waits up to `timeoutMs` (default 10 s) for deliveries in flight. */
  stop(timeoutMs?: number): Promise<void>;
  /** Looks for due work now (after an enqueue, a config change, a test's clock move). */
  wake(): void;
  /** Each target's state (ok, unavailable, misconfigured) and consecutive failures, for /health. */
  targetStates(): Record<string, TargetStateView>;
}

// Node timers overflow past ~24.8 days; waking hourly at most costs nothing.
const MAX_TIMER_MS = 60 * 60_000;
// Outcomes the database refused are written again this often: soon, so a stop finds them recorded.
const UNRECORDED_RETRY_MS = 1_000;

/** Starts delivering due scans to `targets`; one timer, armed at the earliest due time. */
export function startDelivery(options: DeliveryOptions): DeliveryHandle {
  const { queue, clock, logger } = options;
  const targets = options.targets.map((t) => ("target" in t ? t : deliveryTargetOf(t)));
  const random = options.random ?? Math.random;
  const policy = resolvePolicy(options.policy);
  const health = new Map(targets.map(({ target: t }) => [t.name, new TargetHealth(t.name, logger)]));
  const inFlight = new Map(targets.map(({ target: t }) => [t.name, 0]));
  const running = new Set<Promise<void>>();
  // Answers received since the last tick: recorded together, in one transaction.
  const completed: Array<Attempt & { dt: DeliveryTarget }> = [];
  // Outcomes the database refused to record (disk full, I/O error): kept and
  // written again on every tick, while their claims stay leased to us.
  const unrecorded: OutcomeWrite[] = [];
  const around = options.around;
  const outcomes = { queue, policy, logger, random, ...(around ? { confirms: (t: string) => around.confirms(t) } : {}) };
  const gates = createGates({
    queue,
    clock,
    logger,
    fileChecker: options.fileChecker,
    anchors: options.anchors,
    anchorRetryMs: options.anchorRetryMs,
    wake: () => tick(),
  });
  const send = gates.sendWhenAnchored;
  const upkeep = createUpkeep(queue, policy, logger, clock.now());
  let timer: unknown;
  let armedAt = Infinity;
  let stopping = false;
  let detached = false;
  let tickQueued = false;
  const healthOf = (t: Target) => health.get(t.name) as TargetHealth;
  const freeSlots = (t: Target) => Math.min(policy.concurrencyPerTarget, t.maxInFlight ?? Infinity) - (inFlight.get(t.name) ?? 0);
  // While a target is down, one probe per interval (callStarted holds the next one back).
  const slotsToClaim = (t: Target) => (healthOf(t).probing ? Math.min(1, freeSlots(t)) : freeSlots(t));
  const holding = () => running.size + completed.length + unrecorded.length > 0;
  // Anything the queue committed that makes a delivery due (an enqueue, released files, Scan now, Retry).
  const unsubscribe = queue.subscribe((event) => {
    const dueAt = dueAtOf(event);
    if (dueAt !== undefined && !stopping && dueAt < armedAt) arm(dueAt);
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
      writeUnrecorded();
    } catch (error) {
      options.storage?.report(error);
      logger.debug({ err: error, outcomes: unrecorded.length }, "the database still refuses the delivery outcomes");
    }
    recordCompleted(now);
    // The database cannot write: deliveries wait (the storage watch wakes us), outcomes in hand are retried.
    if (options.storage?.problem() !== undefined) {
      arm(unrecorded.length > 0 ? now + UNRECORDED_RETRY_MS : Infinity);
      return;
    }
    try {
      upkeep.keepLeases(now, holding());
      // While anchors are missing they are looked for again now and then, and nothing
      // is dropped either: the maximum age waits.
      if (gates.anchorsMissing()) gates.anchorsOk(now);
      else upkeep.expireOld(now);
      gates.runFileChecks(now);
      const ready = targets.filter(({ target }) => {
        const free = freeSlots(target);
        return free > 0 && !healthOf(target).isHeld(now) && (queue.nextDueAt(target.name) ?? Infinity) <= now;
      });
      // Missing anchors pause every delivery: nothing is sent and no attempt is counted.
      const paused = ready.length > 0 && !gates.anchorsOk(now);
      if (!paused && ready.length > 0) {
        const claims = queue.batch(() =>
          ready.map((dt) => ({
            dt,
            jobs: queue.claimDue(dt.target.name, slotsToClaim(dt.target)),
          })),
        );
        for (const { dt, jobs } of claims) for (const job of jobs) start(dt, job);
      }
      arm(Math.max(now, Math.min(nextWakeAt(now, paused), gates.nextWakeAt())));
    } catch (error) {
      // The database is the only thing that can throw here; try again shortly. A full disk was logged once, by the storage watch.
      if (options.storage?.report(error)) logger.debug({ err: error }, "delivery scheduler held: the database cannot write");
      else logger.error({ err: error }, "delivery scheduler could not use the queue; retrying shortly");
      arm(now + policy.backoff.baseMs);
    }
  }

  function writeUnrecorded(): void {
    while (unrecorded.length > 0) {
      const write = unrecorded[0] as OutcomeWrite;
      if (!write()) logger.warn("a delivery's claim was released before its outcome could be recorded; it will be delivered again");
      unrecorded.shift();
      if (unrecorded.length === 0) logger.info("recorded the delivery outcomes the database had refused");
    }
  }

  /** The next time the scheduler has work of its own; due deliveries count only when not paused by the anchors. */
  function nextWakeAt(now: number, paused: boolean): number {
    let at = Infinity;
    for (const { target } of paused ? [] : targets) {
      if (freeSlots(target) <= 0) continue; // a completion re-ticks
      const due = queue.nextDueAt(target.name);
      if (due !== undefined) at = Math.min(at, Math.max(due, healthOf(target).heldUntil));
    }
    if (unrecorded.length > 0) at = Math.min(at, now + UNRECORDED_RETRY_MS);
    return Math.min(at, upkeep.nextWakeAt(now, holding(), !paused));
  }

  function start(dt: DeliveryTarget, job: DeliveryJob): void {
    const { target } = dt;
    inFlight.set(target.name, (inFlight.get(target.name) ?? 0) + 1);
    const mark = healthOf(target).callStarted(clock.now());
    const before = around ? around.before(dt, job).catch(() => undefined) : Promise.resolve();
    const work = before
      // The anchors are looked at again right before each scan call, after the claim: a pass
      // seen before it (anchorsOk) lets work be claimed, never sent.
      .then(() => deliverFolder(dt, job, send, { refreshAfterConfirmation: around?.confirms(target.name) ?? false }))
      .then((outcome) => {
        if (!detached) completed.push({ dt, job, outcome, mark });
      })
      .catch((error: unknown) => logger.error({ err: error, folder: job.folder }, "delivery bookkeeping failed"))
      .finally(() => {
        inFlight.set(target.name, (inFlight.get(target.name) ?? 1) - 1);
        running.delete(work);
        tickSoon();
      });
    running.add(work);
  }

  // Answers that arrive together are recorded together: one tick, one commit.
  function tickSoon(): void {
    if (tickQueued) return;
    tickQueued = true;
    setImmediate(() => {
      tickQueued = false;
      tick();
    });
  }

  function recordCompleted(now: number): void {
    if (completed.length === 0) return;
    const batch = completed.splice(0).map((c) => ({
      ...c,
      write: planOutcome(outcomes, c.dt.target.name, healthOf(c.dt.target), c, now),
    }));
    if (unrecorded.length > 0) unrecorded.push(...batch.map((b) => b.write));
    else {
      try {
        const lost = queue.batch(() => batch.filter((b) => !b.write()));
        for (const { job, dt } of lost)
          logger.warn({ folder: job.folder, target: dt.target.name }, "a delivery's claim was released before its outcome was recorded");
      } catch (error) {
        // The transaction was rolled back whole: every outcome of the batch is kept and written again.
        const full = options.storage?.report(error) ?? false;
        unrecorded.push(...batch.map((b) => b.write));
        logger[full ? "warn" : "error"](
          { err: error, outcomes: batch.length },
          "could not record deliveries; keeping their outcomes and retrying",
        );
      }
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
    await gates.idle();
    recordCompleted(clock.now());
    try {
      writeUnrecorded();
    } catch (error) {
      logger.error(
        { err: error, outcomes: unrecorded.length },
        "stopped with delivery outcomes the database refused; they are delivered again on the next start",
      );
    }
    // Late answers must not touch a database the caller is about to close.
    detached = true;
  }

  tick();
  const targetStates = () =>
    Object.fromEntries(
      [...health].map(([name, h]) => [
        name,
        { state: h.state, failures: h.consecutiveFailures, ...(h.state === "ok" ? {} : { since: h.downSince, error: h.lastError }) },
      ]),
    );
  return { stop, wake: tick, targetStates };
}
