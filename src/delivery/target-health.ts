import type { Logger } from "../lib/logger.js";

export type HealthState = "ok" | "unavailable" | "misconfigured";

/** How long to hold a target after its `round`-th failed round in a row, `downForMs` into the outage. */
export type HoldDelay = (round: number, downForMs: number) => number;

/**
 * One target's state as the scheduler sees it. While a target is held, none
 * of its deliveries is tried. While it is unavailable, one call (a probe)
 * goes out per probe interval, answered or not, so a hung probe does not hide
 * the server's return; the first answer lets everything through again.
 *
 * Failures are counted per round, not per call: calls that were in flight
 * together fail together (a hang times them all out at once), so a failure
 * counts only when nothing was learnt about the target since its call went
 * out. `callStarted` hands out that mark. State changes are logged once.
 */
export class TargetHealth {
  state: HealthState = "ok";
  heldUntil = 0;
  private failures = 0;
  /** Advances at every counted failure and at every return to "ok". */
  private epoch = 0;
  /** Since when the target is down or refusing (epoch ms), and the error that made it so; kept until it answers. */
  downSince = 0;
  lastError: string | null = null;
  private probeMs = 0;

  constructor(
    private readonly name: string,
    private readonly logger: Logger,
  ) {}

  /** Failed rounds in a row. */
  get consecutiveFailures(): number {
    return this.failures;
  }

  /** Whether calls go out one per probe interval (the target failed its last round). */
  get probing(): boolean {
    return this.state === "unavailable";
  }

  isHeld(now: number): boolean {
    return now < this.heldUntil;
  }

  /** A call goes out now; returns its mark. A probe holds the next one back by a probe interval. */
  callStarted(now: number): number {
    if (this.probing) this.heldUntil = Math.max(this.heldUntil, now + this.probeMs);
    return this.epoch;
  }

  /** Whether a call with `mark` went out as a probe and nothing was learnt since: its failure only says the target is still down. */
  isProbe(mark: number): boolean {
    return this.probing && mark === this.epoch;
  }

  recordSuccess(): void {
    if (this.state !== "ok") {
      this.logger.info({ target: this.name, after: this.failures }, `target ${this.name} accepts scans again`);
      this.epoch += 1;
    }
    this.state = "ok";
    this.failures = 0;
    this.heldUntil = 0;
    this.lastError = null;
  }

  /**
   * Counts the failure of the call with `mark`, unless its round was counted
   * already or the target answered since it went out, and then holds the
   * target `hold` after it. Returns whether it was counted.
   */
  recordUnavailable(message: string, mark: number, now: number, hold: HoldDelay): boolean {
    if (!this.countRound(mark, now, "unavailable", message)) return false;
    this.probeMs = hold(this.failures, now - this.downSince);
    this.heldUntil = Math.max(this.heldUntil, now + this.probeMs);
    return true;
  }

  recordAuthFailure(message: string, mark: number, holdUntil: number, now: number): void {
    if (!this.countRound(mark, now, "misconfigured", message)) return;
    this.heldUntil = Math.max(this.heldUntil, holdUntil);
  }

  private countRound(mark: number, now: number, state: "unavailable" | "misconfigured", message: string): boolean {
    if (mark !== this.epoch) return false;
    this.epoch += 1;
    this.failures += 1;
    if (this.state === "ok") this.downSince = now;
    this.lastError = message;
    if (this.state !== state) {
      const fields = { target: this.name, error: message };
      if (state === "unavailable") {
        this.logger.warn(fields, `target ${this.name} is unavailable; scans are kept and retried with backoff`);
      } else {
        // Error level: nothing will be delivered until a human fixes the credentials.
        this.logger.error(
          fields,
          `target ${this.name} refused our credentials (401/403): check its token; scans are kept and retried slowly`,
        );
      }
    }
    this.state = state;
    return true;
  }
}
