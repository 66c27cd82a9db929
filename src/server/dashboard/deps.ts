import type { QueueEvents } from "../../queue/events.js";
import type { QueueBrowser } from "../../queue/views/history.js";
import type { QueueStats } from "../../queue/views/history-stats.js";
import type { HealthBody } from "../health.js";
import type { ScanQueue } from "../../queue/scan-queue.js";
import type { PathTrace } from "../../paths/trace.js";

/** What the dashboard reads and changes; the service builds it (see service.ts). */
export interface DashboardDeps {
  browser: QueueBrowser;
  /** The queue's actions; the scheduler hears of a scan made due (scan now, retry) from the queue's event. */
  actions: Pick<ScanQueue, "scanNow" | "retry" | "cancel" | "clearHistory">;
  /** The queue's events: open pages are told "changed" after each commit. */
  events: QueueEvents;
  /** The same trace as `scanarr map`, with each target's libraries as last read. */
  trace(path: string): PathTrace;
  /** Target names, for the history filter. */
  targetNames(): string[];
  /** Each target's state, anchors and the drive monitor, secret-free. */
  /** Finished scans by state, deliveries per hour and target, time to confirmation. */
  stats: Pick<QueueStats, "finishedByState" | "deliveriesPerHour" | "confirmLatency">;
  /** The verdict GET /health answers, for the page's header; without it the header shows `status()`'s targets. */
  health?: () => HealthBody;
  status(): { targets: Record<string, { state: string; failures: number }>; drive?: unknown; watch?: unknown };
}
