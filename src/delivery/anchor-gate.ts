import { AnchorMissingError } from "../domain.js";
import type { Clock } from "../lib/clock.js";

/** The anchors (mount markers) that must all be present before anything makes a media server read the mount. */
export interface AnchorCheck {
  /** Checks every anchor now (bounded in time); never rejects. */
  check(): Promise<{ ok: boolean }>;
}

/**
 * Sends `call` in the same turn as an anchor check begun after this call
 * answers present; rejects with AnchorMissingError, sending nothing, when one
 * is missing.
 */
export type AnchorSend = <T>(call: () => Promise<T>) => Promise<T>;

/**
 * The one gate in front of every call that makes a media server read the
 * mount: a delivery's scan and item refresh, a confirmation's re-scan, and
 * the analyze, item refresh and empty trash after it. The scheduler and the
 * after-scan work share one, so each answer it gets holds for both.
 */
export interface AnchorGate extends AnchorCheck {
  /** Every anchor looked at by a check begun after this call (callers waiting together share one); the answer is recorded. */
  confirm(): Promise<boolean>;
  send: AnchorSend;
  /** The latest answer and its clock time; undefined before the first. */
  last(): { ok: boolean; at: number } | undefined;
}

/** `anchors` as a gate: itself when it is one already (one record of answers per service), else a new gate over it. */
export function anchorGateOf(anchors: AnchorCheck | AnchorGate, clock: Pick<Clock, "now">): AnchorGate {
  return "send" in anchors ? anchors : createAnchorGate(anchors, clock);
}

export function createAnchorGate(anchors: AnchorCheck, clock: Pick<Clock, "now">): AnchorGate {
  let last: { ok: boolean; at: number } | undefined;
  async function check(): Promise<{ ok: boolean }> {
    const { ok } = await anchors.check();
    last = { ok, at: clock.now() };
    return { ok };
  }
  async function confirm(): Promise<boolean> {
    return (await check()).ok;
  }
  async function send<T>(call: () => Promise<T>): Promise<T> {
    // No await between the answer and the call: nothing else runs in between.
    if (!(await confirm())) throw new AnchorMissingError("an anchor is missing (is the mount down?); nothing was sent");
    return call();
  }
  return { check, confirm, send, last: () => last };
}

/** A gate where no anchor is configured: every call goes out. */
export const sendUngated: AnchorSend = (call) => call();

/** How a call goes out through `gate`: held by it, or at once where no anchor is configured. */
export function sendThrough(gate: AnchorGate | undefined): AnchorSend {
  return gate?.send ?? sendUngated;
}
