import type { BackoffPolicy } from "./policy.js";

/**
 * Wait before retry number `attempt` (1 = first retry): exponential, capped,
 * with equal jitter. `random` returns [0, 1) and is injected for tests.
 */
export function computeBackoff(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const exponent = Math.max(0, attempt - 1);
  const ceiling = Math.min(policy.maxMs, policy.baseMs * policy.factor ** exponent);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
