import type { ManualClock } from "../../src/lib/clock.js";
import { waitFor } from "../helpers/service.js";

/**
 * Moves a service's injected clock a second at a time until `done` holds.
 * After each step the service finishes what fell due: it is taken as done
 * once the fake servers saw no new request for a moment (`requests` counts
 * what they received).
 */
export async function advanceUntil(
  clock: ManualClock,
  requests: () => number,
  done: () => Promise<boolean>,
  what: string,
  maxMs = 600_000,
): Promise<void> {
  for (let moved = 0; !(await done()); moved += 1_000) {
    if (moved > maxMs) throw new Error(`the clock moved ${maxMs / 1000} s without ${what}`);
    clock.advance(1_000);
    let seen = -1;
    let quietSince = Date.now();
    await waitFor(
      () => {
        const count = requests();
        if (count !== seen) [seen, quietSince] = [count, Date.now()];
        return Date.now() - quietSince >= 20;
      },
      5_000,
      "the service to go quiet",
    );
  }
}

/** A scan as /api/queue and /api/history list it, with what the after-scan tests read. */
export interface ScanView {
  folder: string;
  state: string;
  deliveries: Array<{ target: string; state: string; lastError: string | null; detail: string | null; confirmedAfterMs: number | null }>;
}

/** The scan of `folder` from the queue API (waiting or unconfirmed) or the history API (finished). */
export async function scanOf(base: string, folder: string): Promise<ScanView | undefined> {
  const queue = (await (await fetch(`${base}/api/queue`)).json()) as { pending: ScanView[] };
  const { history } = (await (await fetch(`${base}/api/history`)).json()) as { history: ScanView[] };
  return [...queue.pending, ...history].find((s) => s.folder === folder);
}
