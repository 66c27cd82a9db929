import type { Config } from "../config/types.js";
import type { AfterScanCapability, TargetRuntime } from "../domain.js";
import { createHooks } from "../hooks/hooks.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { AnchorGate } from "../delivery/anchor-gate.js";
import type { QueueEvents } from "../queue/events.js";
import type { DeliveryAround } from "../delivery/scheduler.js";
import { createAroundDelivery, type HookedTarget } from "../delivery/after-scan/around-delivery.js";
import { endUnwatchedConfirmations, startConfirmations, type ConfirmQueue } from "../delivery/after-scan/driver.js";
import { createRescanQueue } from "../delivery/rescans.js";

export interface AfterScanWiring {
  /** For startDelivery's `around`; undefined when no hook and no after-scan work is configured. */
  around: DeliveryAround | undefined;
  stop(): Promise<void>;
}

export interface AfterScanWiringDeps {
  config: Config;
  /** The queue's confirming hold, and its events (a delivery recorded wakes a driver or runs the hook). */
  queue: ConfirmQueue & QueueEvents;
  targets: TargetRuntime[];
  env: NodeJS.ProcessEnv;
  clock: Clock;
  logger: Logger;
  signal: AbortSignal;
  /**
   * The service's one anchor gate (ANCHORS and PLEX_EMPTY_TRASH_CONTROL_FILES),
   * the scheduler's too: re-scans, analyze, item refresh and emptyTrash go
   * through it. Undefined when no anchor is configured.
   */
  gate: AnchorGate | undefined;
}

/**
 * The after-scan work of every target that has it (Target.afterScan, issue
 * 11: the Plex ones, each with its own server, token and settings, read by
 * its factory from its own config entry). Hooks run around each of their
 * scan calls; confirmation, analyze and the guarded empty trash follow them,
 * with one confirmation driver (one poll per interval) per server, and
 * re-scans queued for the scheduler. Targets without it, and a test's
 * replaced target, get none of it.
 */
export function startAfterScan(deps: AfterScanWiringDeps): AfterScanWiring {
  const { config, clock, logger, signal } = deps;
  const hooks = createHooks(config, { env: deps.env, clock, signal });
  const hasHooks = config.RUN_COMMAND_BEFORE_SCAN.length > 0 || config.RUN_COMMAND_AFTER_SCAN.length > 0;
  const drivers = new Map<string, HookedTarget>();
  const rescans = createRescanQueue();
  for (const { built, afterScan } of afterScanTargetsOf(deps.targets)) {
    if (!afterScan.settings.waitsForSection) {
      endUnwatchedConfirmations(deps.queue, built.target.name, logger);
      if (hasHooks) drivers.set(built.target.name, { built, confirmations: undefined });
      continue;
    }
    const driver = startConfirmations({
      queue: deps.queue,
      afterScan,
      target: built,
      rescans,
      hooks,
      clock,
      logger,
      ...(deps.gate ? { gate: deps.gate } : {}),
    });
    drivers.set(built.target.name, { built, confirmations: driver });
  }
  if (drivers.size === 0) return { around: undefined, stop: async () => {} };
  const around = createAroundDelivery({ targets: drivers, hooks, logger, events: deps.queue, rescans });
  return {
    around,
    async stop() {
      around.stop();
      await Promise.all([...drivers.values()].map((hooked) => hooked.confirmations?.stop()));
    },
  };
}

function afterScanTargetsOf(targets: TargetRuntime[]): Array<{ built: TargetRuntime; afterScan: AfterScanCapability }> {
  return targets.flatMap((built) => (built.target.afterScan ? [{ built, afterScan: built.target.afterScan }] : []));
}
