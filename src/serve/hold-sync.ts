import type { Logger } from "../lib/logger.js";
import type { AnchorMonitor, AnchorStatus } from "../mount/anchors.js";
import type { HoldInput } from "../queue/holds.js";
import type { ScanQueue } from "../queue/scan-queue.js";
import type { TargetStateView } from "../delivery/scheduler.js";

export interface HoldSyncDeps {
  queue: Pick<ScanQueue, "recordHolds" | "subscribe">;
  logger: Logger;
  /** The anchors' last check; undefined before the first or when none is configured. */
  anchors: () => AnchorStatus | undefined;
  /** Each target as the scheduler sees it. */
  targets: () => Record<string, TargetStateView>;
}

export interface HoldSync {
  /** Looks now (and writes when something changed). */
  sync(): void;
  /** `monitor`, looking after each of its checks. */
  watchAnchors(monitor: AnchorMonitor): AnchorMonitor;
  stop(): void;
}

/** What holds deliveries back now, from the anchors' last check and the targets' health. */
export function currentHolds(anchors: AnchorStatus | undefined, targets: Record<string, TargetStateView>): HoldInput[] {
  const holds: HoldInput[] = (anchors?.missing ?? []).map((m) => ({ kind: "anchor", subject: m.path, detail: m.reason }));
  for (const [name, t] of Object.entries(targets)) {
    if (t.state === "ok") continue;
    const kind = t.state === "misconfigured" ? "token-refused" : "target-down";
    holds.push({ kind, subject: name, detail: t.error ?? null, ...(t.since ? { since: t.since } : {}) });
  }
  return holds;
}

/**
 * Keeps the stored holds (scan_hold) equal to what holds deliveries back, so
 * the pages, the counts and `scanarr status` (another process) say "held"
 * and why. Looks at start, after each anchor check and after each delivery
 * outcome (a target's health changes only then); writes only when something
 * changed. Stopping clears them: a stopped service holds nothing back, it
 * sends nothing.
 */
export function startHoldSync(deps: HoldSyncDeps): HoldSync {
  const { queue, logger } = deps;
  let stopped = false;
  let soon: NodeJS.Immediate | undefined;
  const write = (holds: HoldInput[]) => {
    try {
      queue.recordHolds(holds);
    } catch (error) {
      // A database that cannot write (full disk) is reported elsewhere; the next look tries again.
      logger.debug({ err: error }, "could not record what holds the deliveries");
    }
  };
  const sync = () => {
    if (!stopped) write(currentHolds(deps.anchors(), deps.targets()));
  };
  // After the outcome's turn: the target's health is updated before its write.
  const later = () => {
    soon ??= setImmediate(() => {
      soon = undefined;
      sync();
    });
  };
  const unsubscribe = queue.subscribe((event) => {
    if (event.type === "delivery-recorded" || event.type === "claim-released") later();
  });
  sync();
  return {
    sync,
    watchAnchors: (monitor) => ({
      anchors: monitor.anchors,
      current: () => monitor.current(),
      check: async () => {
        const status = await monitor.check();
        later();
        return status;
      },
    }),
    stop() {
      stopped = true;
      unsubscribe();
      if (soon) clearImmediate(soon);
      write([]);
    },
  };
}
