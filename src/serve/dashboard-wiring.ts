import type { Config } from "../config/types.js";
import type { TargetRuntime } from "../domain.js";
import type { Clock } from "../lib/clock.js";
import { createMetrics, type ScanMetrics } from "../metrics/metrics.js";
import { observeConfirmations } from "../metrics/observe-confirmations.js";
import { observeDeliveries } from "../metrics/observe-deliveries.js";
import type { ConfirmQueue } from "../queue/confirmations.js";
import type { AnchorMonitor } from "../mount/anchors.js";
import type { PathMapper } from "../paths/mapper.js";
import { tracePath } from "../paths/trace.js";
import { createQueueActions } from "../queue/actions.js";
import type { Database } from "../queue/database.js";
import { QueueBrowser } from "../queue/history.js";
import type { DeliveryQueue } from "../queue/scheduler.js";
import type { DashboardDeps } from "../server/dashboard/deps.js";

export interface DashboardWiring {
  dashboard: DashboardDeps;
  metrics: ScanMetrics | undefined;
  /** The queue the scheduler drives: counted by the metrics when they are on. */
  observed<Q extends DeliveryQueue>(queue: Q): DeliveryQueue;
  /** The queue the confirmation drivers use: their outcomes counted when the metrics are on. */
  observedConfirmations<Q extends ConfirmQueue>(queue: Q): Q;
}

export interface DashboardWiringDeps {
  config: Config;
  db: Database;
  clock: Clock;
  mapper: PathMapper;
  targets: readonly TargetRuntime[];
  /** Late-bound: the scheduler starts after the server listens. */
  wake(): void;
  status(): { targets: Record<string, { state: string; failures: number }>; drive?: unknown; watch?: unknown };
  /** The service's anchor monitor when anchors are configured: the anchor gauges read its last check. */
  anchors?: AnchorMonitor;
}

/** The dashboard's and the metrics' dependencies, built from what serve already has. */
export function wireDashboard(deps: DashboardWiringDeps): DashboardWiring {
  const { config, db, clock, mapper, targets } = deps;
  const browser = new QueueBrowser(db);
  const totalChanges = db.prepare("SELECT total_changes() AS n");
  const dashboard: DashboardDeps = {
    browser,
    actions: createQueueActions(db, clock),
    wake: deps.wake,
    changes: () => (totalChanges.get() as { n: number }).n,
    trace: (path) =>
      tracePath(path, {
        mapper,
        ignoreList: config.SERVER_IGNORE_LIST,
        targets: targets.map((b) => ({
          name: b.target.name,
          toTargetPath: b.toTargetPath,
          libraries: b.libraries.knownLibraries() ?? { error: "not read yet (the target has not answered since the start)" },
        })),
      }),
    targetNames: () => targets.map((b) => b.target.name),
    status: deps.status,
  };
  const metrics = config.METRICS.ENABLED
    ? createMetrics({
        queueDepth: () => browser.counts(),
        targets: () => deps.status().targets,
        drive: config.CLOUD.ENABLED ? () => deps.status().drive as { running: boolean } | undefined : undefined,
        ...(deps.anchors ? { anchors: anchorStates(deps.anchors) } : {}),
      })
    : undefined;
  return {
    dashboard,
    metrics,
    observed: (queue) => (metrics ? observeDeliveries(queue, metrics, clock) : queue),
    observedConfirmations: (queue) => (metrics ? observeConfirmations(queue, metrics) : queue),
  };
}

/** Every configured anchor with its state at the last check (undefined before the first). */
function anchorStates(monitor: AnchorMonitor): () => Array<{ path: string; present: boolean }> | undefined {
  return () => {
    const status = monitor.current();
    if (!status) return undefined;
    const missing = new Set(status.missing.map((m) => m.path));
    return monitor.anchors.map((path) => ({ path, present: !missing.has(path) }));
  };
}
