import type { Clock } from "../lib/clock.js";

/** Checks the anchors now and then every `everyMs` until stopped; a check that hangs is bounded by the probe. */
export function pollAnchors(anchors: { check(): Promise<unknown> }, clock: Clock, everyMs: number): { stop(): void } {
  let timer: unknown;
  let stopped = false;
  const run = (): void => {
    void anchors.check().finally(() => {
      if (!stopped) timer = clock.setTimeout(run, everyMs);
    });
  };
  run();
  return {
    stop() {
      stopped = true;
      clock.clearTimeout(timer);
    },
  };
}
