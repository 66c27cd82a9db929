import type { Config } from "../config/types.js";
import type { Clock } from "../lib/clock.js";
import type { TargetRuntime } from "../domain.js";
import type { ScanMetrics } from "../metrics/metrics.js";
import { observeQueue } from "../metrics/observe-queue.js";
import type { AnchorMonitor } from "../mount/anchors.js";
import type { PathMapper } from "../paths/mapper.js";
import { tracePath } from "../paths/trace.js";
import type { Database } from "../queue/storage/database.js";
import { QueueBrowser } from "../queue/views/history.js";
import { QueueStats } from "../queue/views/history-stats.js";
import type { ScanQueue } from "../queue/scan-queue.js";
import type { DashboardDeps } from "../server/dashboard/deps.js";
import { evaluateHealth, type HealthFacts } from "../server/health.js";

export interface DashboardWiring {
  dashboard: DashboardDeps;
  metrics: ScanMetrics | undefined;
  /** Stops counting the queue's events. */
  stop(): void;
}

export interface DashboardWiringDeps {
  config: Config;
  db: Database;
  clock: Pick<Clock, "now">;
  /** The one writer of the queue: the dashboard's actions go through it, the metrics count its events. */
  queue: Pick<ScanQueue, "scanNow" | "retry" | "cancel" | "clearHistory" | "subscribe" | "countPending" | "countFailed">;
  mapper: PathMapper;
  targets: readonly TargetRuntime[];
  status(): { targets: Record<string, { state: string; failures: number }>; drive?: unknown; watch?: unknown };
  /** The facts GET /health judges: the page's header shows the same verdict. */
  health?: () => Omit<HealthFacts, "queue">;
  /** The service's anchor monitor when anchors are configured: the anchor gauges read its last check. */
  anchors?: AnchorMonitor;
}

/**
 * The dashboard's and the metrics' dependencies, built from what serve already
 * has. The metrics client is loaded only when METRICS.ENABLED.
 */
export async function wireDashboard(deps: DashboardWiringDeps): Promise<DashboardWiring> {
  const { config, db, queue, mapper, targets } = deps;
  const browser = new QueueBrowser(db, deps.clock);
  const dashboard: DashboardDeps = {
    browser,
    actions: queue,
    events: queue,
    trace: (path) =>
      tracePath(path, {
        mapper,
        ignoreList: config.SERVER_IGNORE_LIST,
        targets: targets.map((b) => ({
          name: b.target.name,
          toTargetPath: b.toTargetPath,
          ...(b.explainTargetPath ? { explainTargetPath: b.explainTargetPath } : {}),
          libraries: b.libraries.knownLibraries() ?? { error: "not read yet (the target has not answered since the start)" },
        })),
      }),
    targetNames: () => targets.map((b) => b.target.name),
    status: deps.status,
    stats: new QueueStats(db),
    ...(deps.health ? { health: healthOf(deps.health, queue) } : {}),
  };
  const metrics = config.METRICS.ENABLED
    ? (await import("../metrics/metrics.js")).createMetrics({
        targetNames: targets.map((b) => b.target.name),
        queueDepth: () => browser.counts(),
        targets: () => deps.status().targets,
        drive: config.CLOUD.ENABLED ? () => deps.status().drive as { running: boolean } | undefined : undefined,
        ...(deps.anchors ? { anchors: anchorStates(deps.anchors) } : {}),
      })
    : undefined;
  const unsubscribe = metrics ? observeQueue(queue, metrics) : () => {};
  return { dashboard, metrics, stop: unsubscribe };
}

/** The verdict of GET /health, from the same facts and the same queue counts. */
function healthOf(facts: () => Omit<HealthFacts, "queue">, queue: Pick<ScanQueue, "countPending" | "countFailed">) {
  return () => evaluateHealth({ ...facts(), queue: { pending: queue.countPending(), failed: queue.countFailed() } }).body;
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
