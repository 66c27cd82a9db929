import { TargetAuthError, TargetUnavailableError, type Contact, type ContactState } from "../domain.js";
import type { Clock } from "../lib/clock.js";

/**
 * A target's reachability as proven by real calls, for /health: a target
 * that was never reached is not "ok". Any answer that is not an auth or
 * availability failure proves both reachability and credentials.
 */
export class ContactRecorder {
  private last: Contact = { state: "unknown" };

  constructor(private readonly clock: Pick<Clock, "now">) {}

  succeeded(): void {
    this.last = { state: "ok", at: this.clock.now() };
  }

  failed(error: unknown): void {
    const state: ContactState =
      error instanceof TargetAuthError ? "refused" : error instanceof TargetUnavailableError ? "unavailable" : "ok";
    this.last = { state, at: this.clock.now() };
  }

  current(): Contact {
    return { ...this.last };
  }
}
