import type { Target } from "../domain.js";
import type { Logger } from "../lib/logger.js";
import type { DeliveryTarget } from "./deliver.js";
import type { DeliveryPolicy } from "./policy.js";
import type { RescanQueue } from "./rescans.js";
import type { Runner } from "./runner.js";
import type { DeliveryQueue, TargetStateView } from "./scheduler-types.js";
import { TargetHealth } from "./target-health.js";

/** Each target's slots and health, and the work they take: due deliveries claimed from the queue, queued re-scans. */
export interface Claims {
  healthOf(dt: DeliveryTarget): TargetHealth;
  /** Sends the queued re-scans that fit in their targets' free slots. */
  startRescans(): void;
  /** Claims, in one transaction, the due deliveries of the targets with free slots and no hold, and sends them. */
  claimDue(now: number, anchorsOk: (now: number) => boolean): { paused: boolean };
  /** The next time a due delivery could be claimed; none counts while `paused` by the anchors. */
  nextDueAt(paused: boolean): number;
  targetStates(): Record<string, TargetStateView>;
}

export interface ClaimsOptions {
  queue: DeliveryQueue;
  targets: DeliveryTarget[];
  policy: DeliveryPolicy;
  logger: Logger;
  runner: () => Runner;
  rescans: RescanQueue | undefined;
}

export function createClaims(options: ClaimsOptions): Claims {
  const { queue, targets, policy, logger } = options;
  const health = new Map(targets.map(({ target: t }) => [t.name, new TargetHealth(t.name, logger)]));
  const healthOf = (dt: DeliveryTarget) => health.get(dt.target.name) as TargetHealth;
  const freeSlots = (t: Target) => Math.min(policy.concurrencyPerTarget, t.maxInFlight ?? Infinity) - options.runner().inFlight(t.name);
  // While a target is down, one probe per interval (callStarted holds the next one back).
  const slotsToClaim = (dt: DeliveryTarget) => (healthOf(dt).probing ? Math.min(1, freeSlots(dt.target)) : freeSlots(dt.target));

  function startRescans(): void {
    if (!options.rescans) return;
    for (const dt of targets) {
      const free = freeSlots(dt.target);
      if (free > 0) for (const queued of options.rescans.take(dt.target.name, free)) options.runner().rescan(dt, queued);
    }
  }

  function claimDue(now: number, anchorsOk: (now: number) => boolean): { paused: boolean } {
    const ready = targets.filter((dt) => {
      const free = freeSlots(dt.target);
      return free > 0 && !healthOf(dt).isHeld(now) && (queue.nextDueAt(dt.target.name) ?? Infinity) <= now;
    });
    // Missing anchors pause every delivery: nothing is sent and no attempt is counted.
    const paused = ready.length > 0 && !anchorsOk(now);
    if (paused || ready.length === 0) return { paused };
    const claims = queue.batch(() => ready.map((dt) => ({ dt, jobs: queue.claimDue(dt.target.name, slotsToClaim(dt)) })));
    for (const { dt, jobs } of claims) for (const job of jobs) options.runner().deliver(dt, job);
    return { paused };
  }

  function nextDueAt(paused: boolean): number {
    let at = Infinity;
    for (const dt of paused ? [] : targets) {
      if (freeSlots(dt.target) <= 0) continue; // a completion re-ticks
      const due = queue.nextDueAt(dt.target.name);
      if (due !== undefined) at = Math.min(at, Math.max(due, healthOf(dt).heldUntil));
    }
    return at;
  }

  function targetStates(): Record<string, TargetStateView> {
    return Object.fromEntries(
      [...health].map(([name, h]) => [
        name,
        { state: h.state, failures: h.consecutiveFailures, ...(h.state === "ok" ? {} : { since: h.downSince, error: h.lastError }) },
      ]),
    );
  }

  return { healthOf, startRescans, claimDue, nextDueAt, targetStates };
}
