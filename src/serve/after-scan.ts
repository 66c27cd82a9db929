import { PLEX_TARGET_NAMES } from "../config/defaults.js";
import type { Config } from "../config/types.js";
import type { TargetRuntime } from "../domain.js";
import { createHooks } from "../hooks/hooks.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { AnchorGate } from "../delivery/anchor-gate.js";
import type { QueueEvents } from "../queue/events.js";
import type { DeliveryAround } from "../delivery/scheduler.js";
import { createPlexAfterScan, type AfterScanConfig } from "../targets/plex/after-scan.js";
import { createAroundDelivery, type HookedTarget } from "../delivery/after-scan/around-delivery.js";
import { endUnwatchedConfirmations, startConfirmations, type ConfirmQueue } from "../delivery/after-scan/driver.js";
import { afterScanConfigOfEntry } from "../targets/plex/after-scan-config.js";

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
  timeoutMs?: number;
  /**
   * The service's one anchor gate (ANCHORS and PLEX_EMPTY_TRASH_CONTROL_FILES),
   * the scheduler's too: re-scans, analyze, item refresh and emptyTrash go
   * through it. Undefined when no anchor is configured.
   */
  gate: AnchorGate | undefined;
}

/** A target whose scans confirm, and where its after-scan settings come from. */
interface PlexAfterScanTarget {
  built: TargetRuntime;
  settings: AfterScanConfig;
  keys: { urlKey?: string; tokenKey?: string };
}

/**
 * The after-scan work of every Plex target (issue 11): the flat PLEX_* one
 * and each enabled TARGETS entry of TYPE "plex", each with its own server,
 * token and settings. Hooks run around each of their scan calls;
 * confirmation, analyze and the guarded empty trash follow them, with one
 * confirmation driver (one poll per interval) per server. Targets that do
 * not confirm (Target.confirms), and a test's replaced target, get none of it.
 */
export function startAfterScan(deps: AfterScanWiringDeps): AfterScanWiring {
  const { config, clock, logger, signal } = deps;
  const plexTargets = plexTargetsOf(config, deps.targets);
  const hooks = createHooks(config, { env: deps.env, clock, signal });
  const hasHooks = config.RUN_COMMAND_BEFORE_SCAN.length > 0 || config.RUN_COMMAND_AFTER_SCAN.length > 0;
  const drivers = new Map<string, HookedTarget>();
  for (const { built, settings, keys } of plexTargets) {
    const afterScan = createPlexAfterScan(settings, { env: deps.env, signal, timeoutMs: deps.timeoutMs, ...keys });
    if (!afterScan.waitsForSection) {
      endUnwatchedConfirmations(deps.queue, built.target.name, logger);
      if (hasHooks) drivers.set(built.target.name, { built, confirmations: undefined });
      continue;
    }
    const driver = startConfirmations({
      queue: deps.queue,
      afterScan,
      target: built,
      hooks,
      clock,
      logger,
      ...(deps.gate ? { gate: deps.gate } : {}),
    });
    drivers.set(built.target.name, { built, confirmations: driver });
  }
  if (drivers.size === 0) return { around: undefined, stop: async () => {} };
  const around = createAroundDelivery({ targets: drivers, hooks, logger, events: deps.queue });
  return {
    around,
    async stop() {
      around.stop();
      await Promise.all([...drivers.values()].map((hooked) => hooked.confirmations?.stop()));
    },
  };
}

function plexTargetsOf(config: Config, targets: TargetRuntime[]): PlexAfterScanTarget[] {
  const found: PlexAfterScanTarget[] = [];
  for (const built of targets) {
    if (!built.target.confirms) continue;
    const name = built.target.name;
    if (config.PLEX_ENABLED && (name === PLEX_TARGET_NAMES.api || name === PLEX_TARGET_NAMES.scanner)) {
      found.push({ built, settings: config, keys: {} });
      continue;
    }
    const index = config.TARGETS.findIndex((e) => e.ENABLED && e.TYPE === "plex" && e.NAME === name);
    const entry = config.TARGETS[index];
    if (!entry) continue;
    const at = `TARGETS[${index}]`;
    found.push({ built, settings: afterScanConfigOfEntry(config, entry), keys: { urlKey: `${at}.URL`, tokenKey: `${at}.TOKEN` } });
  }
  return found;
}
