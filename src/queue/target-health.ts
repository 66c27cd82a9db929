import type { Logger } from "../lib/logger.js";

export type HealthState = "ok" | "unavailable" | "misconfigured";

/**
 * One target's state as the scheduler sees it. While a target is held, none
 * of its deliveries is tried, so an outage costs one probe per backoff step
 * instead of one request per waiting scan. State changes are logged once.
 */
export class TargetHealth {
  state: HealthState = "ok";
  heldUntil = 0;
  private failures = 0;

  constructor(
    private readonly name: string,
    private readonly logger: Logger,
  ) {}

  /** Consecutive failures so far, including the one being recorded. */
  get consecutiveFailures(): number {
    return this.failures;
  }

  isHeld(now: number): boolean {
    return now < this.heldUntil;
  }

  recordSuccess(): void {
    if (this.state !== "ok") {
      this.logger.info({ target: this.name, after: this.failures }, `target ${this.name} accepts scans again`);
    }
    this.state = "ok";
    this.failures = 0;
    this.heldUntil = 0;
  }

  recordUnavailable(message: string, holdUntil: number): void {
    this.failures += 1;
    if (this.state !== "unavailable") {
      this.logger.warn(
        { target: this.name, error: message },
        `target ${this.name} is unavailable; scans are kept and retried with backoff`,
      );
    }
    this.state = "unavailable";
    this.heldUntil = Math.max(this.heldUntil, holdUntil);
  }

  recordAuthFailure(message: string, holdUntil: number): void {
    this.failures += 1;
    if (this.state !== "misconfigured") {
      // Error level: nothing will be delivered until a human fixes the credentials.
      this.logger.error(
        { target: this.name, error: message },
        `target ${this.name} refused our credentials (401/403): check its token; scans are kept and retried slowly`,
      );
    }
    this.state = "misconfigured";
    this.heldUntil = Math.max(this.heldUntil, holdUntil);
  }
}
