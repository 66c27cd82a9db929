import type { QueueActions } from "../../queue/actions.js";
import type { QueueBrowser } from "../../queue/history.js";
import type { PathTrace } from "../../paths/trace.js";

/** What the dashboard reads and changes; the service builds it (see service.ts). */
export interface DashboardDeps {
  browser: QueueBrowser;
  actions: QueueActions;
  /** Tells the scheduler to look for due work now (after scan now or retry). */
  wake(): void;
  /** A number that changes whenever the database was written (SQLite total_changes()): live updates poll it. */
  changes(): number;
  /** The same trace as `scanarr map`, with each target's libraries as last read. */
  trace(path: string): PathTrace;
  /** Target names, for the history filter. */
  targetNames(): string[];
  /** Each target's state, anchors and the drive monitor, secret-free. */
  status(): { targets: Record<string, { state: string; failures: number }>; drive?: unknown; watch?: unknown };
}
