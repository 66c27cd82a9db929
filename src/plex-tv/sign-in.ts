import { InterruptedError, UserError } from "../domain.js";
import type { PlexPin, PlexTvClient } from "./client.js";

export interface PinWait {
  /** Between two looks at the PIN; about a second, as the Plex apps do. */
  intervalMs: number;
  /** Gives up after this long even if plex.tv still knows the PIN. */
  deadlineMs: number;
  now: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  signal: AbortSignal;
}

/** The PIN expired or the wait ran out: the user starts again. */
export class PinExpiredError extends UserError {
  constructor() {
    super("the Plex sign-in code expired before it was entered; run `scanarr setup` again for a new code", 1);
  }
}

/**
 * Looks at the PIN until plex.tv hands out the account's token, the PIN
 * expires, the deadline passes or the signal fires.
 */
export async function waitForSignIn(client: PlexTvClient, pin: PlexPin, wait: PinWait): Promise<string> {
  const end = wait.now() + wait.deadlineMs;
  const expires = pin.expiresAt ? Date.parse(pin.expiresAt) : Number.NaN;
  for (;;) {
    if (wait.signal.aborted) throw new InterruptedError("interrupted while waiting for the Plex sign-in; nothing was written");
    const seen = await client.readPin(pin.id);
    if (seen === undefined) throw new PinExpiredError();
    if (seen.authToken) return seen.authToken;
    if (wait.now() >= end || (Number.isFinite(expires) && Date.now() >= expires)) throw new PinExpiredError();
    await wait.sleep(wait.intervalMs, wait.signal).catch(() => undefined);
  }
}

/** A sleep that ends early when the signal fires. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
