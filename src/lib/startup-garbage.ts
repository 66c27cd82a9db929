import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Long enough after start-up that V8 sees a low allocation rate, which is when a full collection shrinks the young generation. */
export const STARTUP_COLLECTION_DELAY_MS = 5_000;

/**
 * One full garbage collection, a few seconds after `serve`'s start-up work
 * ended. Loading some 300 modules grows V8's young generation to 16 MB, and
 * when start-up ends without a full collection, V8's memory reducer (which
 * only starts after one) never hands that back: the idle RSS stayed 7-8 MB
 * higher in about half the starts (issue 26, bench/README.md). Capping the
 * young generation instead (--max-semi-space-size=1) cost 45 % more CPU per
 * webhook. The collection takes a few milliseconds on a heap this small; the
 * timer never keeps the process alive.
 *
 * `gc` is only reachable with --expose-gc, which a context made while the flag
 * is set gets; the main context stays as it was.
 */
export function collectStartupGarbageSoon(delayMs = STARTUP_COLLECTION_DELAY_MS): void {
  setFlagsFromString("--expose-gc");
  // Called plainly it is a full (mark-compact) collection.
  const gc = runInNewContext("gc") as () => void;
  setFlagsFromString("--no-expose-gc");
  setTimeout(() => gc(), delayMs).unref();
}
