/**
 * How long to wait before retry number `retry` (1 = the first retry):
 * `baseMs × factor^(retry-1)`, capped at `maxMs`, then jittered so many
 * waiters do not retry in step. One formula for the queue, Drive and the
 * notifications; each keeps its own numbers.
 */
export interface Backoff {
  baseMs: number;
  factor: number;
  /** The cap before jitter; Infinity for none. */
  maxMs: number;
  /**
   * "equal": a random point in the upper half of the wait (the queue).
   * `{ addUpToMs }`: up to that much added at random (Google's advice for its APIs).
   * Absent: the wait as computed.
   */
  jitter?: "equal" | { addUpToMs: number };
}

/** `random` returns [0, 1) and is injected for tests. */
export function backoffDelay(retry: number, backoff: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * backoff.factor ** Math.max(0, retry - 1));
  const { jitter } = backoff;
  if (jitter === undefined) return ceiling;
  if (jitter === "equal") return Math.round(ceiling / 2 + random() * (ceiling / 2));
  return ceiling + Math.floor(random() * jitter.addUpToMs);
}
