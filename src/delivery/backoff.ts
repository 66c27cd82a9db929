import { backoffDelay } from "../lib/backoff.js";
import type { DeliveryPolicy } from "./policy.js";

/**
 * How long a target is held after its `round`-th failed round in a row: the
 * backoff (lib/backoff.ts, equal jitter), capped at `quickProbeMs` during the
 * first `quickProbeForMs` of the outage. While it is held, one probe goes out
 * per this interval.
 */
export function probeInterval(round: number, downForMs: number, policy: DeliveryPolicy, random: () => number): number {
  const quick = downForMs < policy.quickProbeForMs;
  const maxMs = quick ? Math.min(policy.quickProbeMs, policy.backoff.maxMs) : policy.backoff.maxMs;
  return backoffDelay(round, { ...policy.backoff, maxMs, jitter: "equal" }, random);
}
