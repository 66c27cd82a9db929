import { TargetAuthError, TargetUnavailableError } from "../domain.js";
import type { Clock } from "../lib/clock.js";

/** What the last real exchange with a media server showed; "unknown" until it answered or failed once. */
export type ContactState = "unknown" | "ok" | "unavailable" | "refused";

export interface Contact {
  state: ContactState;
  /** Clock time of the last exchange; absent while unknown. */
  at?: number;
}

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
