import type { BackoffPolicy, DeliveryPolicy } from "./policy.js";

/**
 * Wait before retry number `attempt` (1 = first retry): exponential, capped,
 * with equal jitter. `random` returns [0, 1) and is injected for tests.
 */
export function computeBackoff(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const exponent = Math.max(0, attempt - 1);
  const ceiling = Math.min(policy.maxMs, policy.baseMs * policy.factor ** exponent);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * How long a target is held after its `round`-th failed round in a row: the
 * backoff, capped at `quickProbeMs` during the first `quickProbeForMs` of the
 * outage. While it is held, one probe goes out per this interval.
 */
export function probeInterval(round: number, downForMs: number, policy: DeliveryPolicy, random: () => number): number {
  const quick = downForMs < policy.quickProbeForMs;
  const maxMs = quick ? Math.min(policy.quickProbeMs, policy.backoff.maxMs) : policy.backoff.maxMs;
  return computeBackoff(round, { ...policy.backoff, maxMs }, random);
}
