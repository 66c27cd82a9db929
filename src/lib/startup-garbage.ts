import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Long enough after start-up that V8 sees a low allocation rate, which is when a full collection shrinks the young generation. */
export const STARTUP_COLLECTION_DELAY_MS = 5_000;

/** The young generation's size once V8 has shrunk it (its first semi-space, 1 MB); above this it was not shrunk. */
const SHRUNK_YOUNG_BYTES = 2 * 1024 * 1024;
const MAX_COLLECTIONS = 4;
/**
 * Above this share of the last delay spent running code the service is at
 * work (a burst of webhooks after a restart): a collection then only shrinks
 * the young generation the work is using, and each webhook cost 20 % more CPU
 * while it grew back (issue 35). The collection waits another delay instead,
 * MAX_WAITS times at most (five minutes).
 */
const BUSY_UTILIZATION = 0.5;
const MAX_WAITS = 60;

/**
 * One full garbage collection, a few seconds after `serve`'s start-up work
 * ended. Loading some 300 modules grows V8's young generation to 16 MB, and
 * when start-up ends without a full collection, V8's memory reducer (which
 * only starts after one) never hands that back: the idle RSS stayed 7-8 MB
 * higher in about half the starts (issue 26, bench/README.md). Capping the
 * young generation instead (--max-semi-space-size=1) cost 45 % more CPU per
 * webhook. On a busy machine the first collection can still see a high
 * allocation rate and keep the young generation; it is tried again, a few
 * times at most (issue 35); never while the event loop is busy (`busy`).
 * The collection takes a few milliseconds on a heap this small; the timer
 * never keeps the process alive.
 *
 * `gc` is only reachable with --expose-gc, which a context made while the flag
 * is set gets; the main context stays as it was.
 */
export function collectStartupGarbageSoon(
  delayMs = STARTUP_COLLECTION_DELAY_MS,
  { busy = loopBusySinceAsked(), gc = exposedGc() }: { busy?: () => boolean; gc?: () => void } = {},
): void {
  const collect = (left: number, waits: number) => {
    if (busy()) {
      if (waits < MAX_WAITS) setTimeout(() => collect(left, waits + 1), delayMs).unref();
      return;
    }
    gc();
    if (left > 1 && youngGenerationBytes() > SHRUNK_YOUNG_BYTES) setTimeout(() => collect(left - 1, waits), delayMs).unref();
  };
  setTimeout(() => collect(MAX_COLLECTIONS, 0), delayMs).unref();
}

function exposedGc(): () => void {
  setFlagsFromString("--expose-gc");
  // Called plainly it is a full (mark-compact) collection.
  const gc = runInNewContext("gc") as () => void;
  setFlagsFromString("--no-expose-gc");
  return gc;
}

/** Whether the event loop ran code more than BUSY_UTILIZATION of the time since the last call (the first: since this was made). */
export function loopBusySinceAsked(): () => boolean {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization > BUSY_UTILIZATION;
    last = now;
    return busy;
  };
}

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
}
