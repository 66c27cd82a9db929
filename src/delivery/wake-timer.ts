import type { Clock } from "../lib/clock.js";

// Node timers overflow past ~24.8 days; waking hourly at most costs nothing.
const MAX_TIMER_MS = 60 * 60_000;

/** The scheduler's one timer, armed at the earliest time it has work. */
export interface WakeTimer {
  /** Re-arms at clock time `at` (Infinity: disarmed). */
  arm(at: number): void;
  /** The time armed, Infinity when disarmed. */
  armedAt(): number;
  /** Disarms for good: later `arm` calls do nothing. */
  close(): void;
}

export function createWakeTimer(clock: Clock, fire: () => void): WakeTimer {
  let timer: unknown;
  let armedAt = Infinity;
  let closed = false;
  function arm(at: number): void {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    armedAt = at;
    if (at === Infinity || closed) return;
    timer = clock.setTimeout(fire, Math.min(MAX_TIMER_MS, Math.max(0, at - clock.now())));
  }
  return {
    arm,
    armedAt: () => armedAt,
    close() {
      closed = true;
      arm(Infinity);
    },
  };
}
