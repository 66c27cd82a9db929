import { ManualClock } from "../../src/lib/clock.js";

/**
 * A ManualClock that tells when its next timer is due, so a bench can move
 * from one instant to the next (a discrete-event replay): the service's
 * timers and the bench's own events fire at their exact times, and the bench
 * lets the work of one instant finish before it steps to the next.
 */
export class StepClock extends ManualClock {
  private readonly dueAt = new Map<unknown, number>();

  override setTimeout(fn: () => void, ms: number): unknown {
    const handle = super.setTimeout(() => {
      this.dueAt.delete(handle);
      fn();
    }, ms);
    this.dueAt.set(handle, this.now() + Math.max(0, ms));
    return handle;
  }

  override clearTimeout(handle: unknown): void {
    this.dueAt.delete(handle);
    super.clearTimeout(handle);
  }

  /** When the earliest timer is due; Infinity when none waits. */
  nextDue(): number {
    let at = Infinity;
    for (const due of this.dueAt.values()) at = Math.min(at, due);
    return at;
  }

  /** Moves to `at` (never back), firing every timer due by then. */
  stepTo(at: number): void {
    this.advance(Math.max(0, at - this.now()));
  }
}
