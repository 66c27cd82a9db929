import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { DeliveryTarget } from "./deliver.js";
import { dueAtOf } from "../queue/events.js";
import type { AnchorGate } from "./anchor-gate.js";
import { createClaims } from "./claims.js";
import { createGates, type AnchorCheck, type FileChecker } from "./gates.js";
import { createOutcomeBook } from "./outcome-book.js";
import { resolvePolicy, type DeliveryPolicy } from "./policy.js";
import { createRunner, type Runner } from "./runner.js";
import type { DeliveryAround, DeliveryQueue, DeliveryStorage, TargetStateView } from "./scheduler-types.js";
import { createUpkeep } from "./upkeep.js";
import { createWakeTimer } from "./wake-timer.js";

export type { DeliveryAround, DeliveryQueue, DeliveryStorage, TargetStateView } from "./scheduler-types.js";

export interface DeliveryOptions {
  queue: DeliveryQueue;
  /** Where scans go: each target with its library list and its own path form (targets/build-targets.ts builds them). */
  targets: DeliveryTarget[];
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
  /** Work before the scan call of some targets, whether they confirm, and their re-scans (src/delivery/after-scan/around-delivery.ts). */
  around?: DeliveryAround;
  storage?: DeliveryStorage;
}

export interface DeliveryHandle {
  /** Stops taking work and waits up to `timeoutMs` (default 10 s) for deliveries in flight. */
  stop(timeoutMs?: number): Promise<void>;
  /** Looks for due work now (after an enqueue, a config change, a test's clock move). */
  wake(): void;
  /** Each target's state (ok, unavailable, misconfigured) and consecutive failures, for /health. */
  targetStates(): Record<string, TargetStateView>;
}

// Outcomes the database refused are written again this often: soon, so a stop finds them recorded.
const UNRECORDED_RETRY_MS = 1_000;

/** Starts delivering due scans to `targets`; one timer, armed at the earliest due time. */
export function startDelivery(options: DeliveryOptions): DeliveryHandle {
  const { queue, clock, logger, targets, around } = options;
  const policy = resolvePolicy(options.policy);
  const gates = createGates({
    queue,
    clock,
    logger,
    fileChecker: options.fileChecker,
    anchors: options.anchors,
    anchorRetryMs: options.anchorRetryMs,
    wake: () => tick(),
  });
  const claims = createClaims({ queue, targets, policy, logger, runner: () => runner, rescans: around?.rescans });
  const book = createOutcomeBook({
    queue,
    policy,
    logger,
    random: options.random ?? Math.random,
    healthOf: claims.healthOf,
    ...(around ? { confirms: (t: string) => around.confirms(t) } : {}),
    ...(options.storage ? { storage: options.storage } : {}),
  });
  const runner: Runner = createRunner({
    clock,
    logger,
    around,
    send: gates.sendWhenAnchored,
    healthOf: claims.healthOf,
    answered: book.add,
    ended: tickSoon,
  });
  const upkeep = createUpkeep(queue, policy, logger, clock.now());
  const timer = createWakeTimer(clock, tick);
  let stopping = false;
  let tickQueued = false;
  const holding = () => runner.running() + book.pending() > 0;
  // Anything the queue committed that makes a delivery due (an enqueue, released files, Scan now, Retry).
  const unsubscribe = queue.subscribe((event) => {
    const dueAt = dueAtOf(event);
    if (dueAt !== undefined && !stopping && dueAt < timer.armedAt()) timer.arm(dueAt);
  });

  function tick(): void {
    if (stopping) return;
    const now = clock.now();
    try {
      book.writeUnrecorded();
    } catch (error) {
      options.storage?.report(error);
      logger.debug({ err: error, outcomes: book.unrecorded() }, "the database still refuses the delivery outcomes");
    }
    book.recordCompleted(now);
    // A re-scan writes nothing to the queue here: its confirmation records what came of it.
    claims.startRescans();
    // The database cannot write: deliveries wait (the storage watch wakes us), outcomes in hand are retried.
    if (options.storage?.problem() !== undefined) {
      timer.arm(book.unrecorded() > 0 ? now + UNRECORDED_RETRY_MS : Infinity);
      return;
    }
    try {
      upkeep.keepLeases(now, holding());
      // While anchors are missing they are looked for again now and then, and nothing
      // is dropped either: the maximum age waits.
      if (gates.anchorsMissing()) gates.anchorsOk(now);
      else upkeep.expireOld(now);
      gates.runFileChecks(now);
      const { paused } = claims.claimDue(now, gates.anchorsOk);
      timer.arm(Math.max(now, Math.min(nextWakeAt(now, paused), gates.nextWakeAt())));
    } catch (error) {
      // The database is the only thing that can throw here; try again shortly. A full disk was logged once, by the storage watch.
      if (options.storage?.report(error)) logger.debug({ err: error }, "delivery scheduler held: the database cannot write");
      else logger.error({ err: error }, "delivery scheduler could not use the queue; retrying shortly");
      timer.arm(now + policy.backoff.baseMs);
    }
  }

  /** The next time the scheduler has work of its own; due deliveries count only when not paused by the anchors. */
  function nextWakeAt(now: number, paused: boolean): number {
    let at = claims.nextDueAt(paused);
    if (book.unrecorded() > 0) at = Math.min(at, now + UNRECORDED_RETRY_MS);
    return Math.min(at, upkeep.nextWakeAt(now, holding(), !paused));
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

  async function stop(timeoutMs = 10_000): Promise<void> {
    if (stopping) return;
    stopping = true;
    unsubscribe();
    around?.rescans?.close();
    timer.close();
    await runner.settle(timeoutMs);
    await gates.idle();
    book.recordCompleted(clock.now());
    try {
      book.writeUnrecorded();
    } catch (error) {
      logger.error(
        { err: error, outcomes: book.unrecorded() },
        "stopped with delivery outcomes the database refused; they are delivered again on the next start",
      );
    }
    // Late answers must not touch a database the caller is about to close.
    runner.detach();
  }

  around?.rescans?.attach(tickSoon);
  tick();
  return { stop, wake: tick, targetStates: claims.targetStates };
}
