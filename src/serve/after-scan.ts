import { PLEX_TARGET_NAMES } from "../config/defaults.js";
import type { Config } from "../config/types.js";
import { createHooks } from "../hooks/hooks.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { AnchorMonitor } from "../mount/anchors.js";
import { createAfterDelivery } from "../queue/after-delivery.js";
import { startConfirmations, type ConfirmationHandle, type ConfirmQueue } from "../queue/confirmations.js";
import type { DeliveryAround } from "../queue/scheduler.js";
import type { BuiltTarget } from "../targets/build-targets.js";
import { createPlexAfterScan } from "../targets/plex/after-scan.js";

export interface AfterScanWiring {
  /** For startDelivery's `around`; undefined when no hook and no after-scan work is configured. */
  around: DeliveryAround | undefined;
  stop(): Promise<void>;
}

export interface AfterScanWiringDeps {
  config: Config;
  queue: ConfirmQueue;
  targets: BuiltTarget[];
  env: NodeJS.ProcessEnv;
  clock: Clock;
  logger: Logger;
  signal: AbortSignal;
  timeoutMs?: number;
  /** The service's anchor monitor (ANCHORS and PLEX_EMPTY_TRASH_CONTROL_FILES): the empty-trash guard. */
  anchors: AnchorMonitor;
}

/**
 * The after-scan work of the flat PLEX_* target (issue 11): hooks around its
 * scan calls, and confirmation, analyze and the guarded empty trash after
 * them. TARGETS entries and a test's replaced target get none of it.
 */
export function startAfterScan(deps: AfterScanWiringDeps): AfterScanWiring {
  const { config, clock, logger, signal } = deps;
  const plex = deps.targets.find(
    (b) => b.type === "plex" && (b.target.name === PLEX_TARGET_NAMES.api || b.target.name === PLEX_TARGET_NAMES.scanner),
  );
  if (!config.PLEX_ENABLED || !plex) return { around: undefined, stop: async () => {} };
  const afterScan = createPlexAfterScan(config, { env: deps.env, signal, timeoutMs: deps.timeoutMs });
  const hooks = createHooks(config, { env: deps.env, clock, signal });
  const hasHooks = config.RUN_COMMAND_BEFORE_SCAN.length > 0 || config.RUN_COMMAND_AFTER_SCAN.length > 0;
  if (!afterScan.waitsForSection && !hasHooks) return { around: undefined, stop: async () => {} };
  const anchors = deps.anchors.anchors.length > 0 ? deps.anchors : undefined;
  let confirmations: ConfirmationHandle | undefined;
  if (afterScan.waitsForSection) {
    confirmations = startConfirmations({
      queue: deps.queue,
      afterScan,
      target: plex,
      hooks,
      clock,
      logger,
      ...(anchors ? { anchors } : {}),
    });
  }
  return {
    around: createAfterDelivery({ target: plex.target.name, hooks, logger, ...(confirmations ? { confirmations } : {}) }),
    async stop() {
      await confirmations?.stop();
    },
  };
}
