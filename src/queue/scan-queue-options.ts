import type { Database } from "better-sqlite3";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { HistoryLimits } from "./deliveries.js";
import type { FileCheckPolicy } from "./file-checks.js";
import type { PriorityRules } from "./priority.js";

export interface ScanQueueOptions {
  db: Database;
  clock: Clock;
  /** Target names; every scan gets one delivery per target. */
  targets: string[];
  /** Trailing debounce per folder (SERVER_SCAN_DELAY × 1000). */
  delayMs: number;
  /** Cap of the debounce from a scan's first request; see defaultMaxWaitMs. */
  maxWaitMs?: number;
  /** SERVER_SCAN_PRIORITIES. */
  priorities?: PriorityRules;
  logger: Logger;
  /** Finished scans kept for `recent()`: 1,000 done and 10,000 failed by default. */
  history?: Partial<HistoryLimits>;
  /**
   * Reset deliveries a crash left `delivering` (default true). Only the
   * process that delivers, holding the instance lock, may do it; a read-only
   * inspector passes false.
   */
  recover?: boolean;
  /** Who this process is in claims (default: host, pid and a random tag). */
  owner?: string;
  /** How long a claim holds without renewal (default 2 min; the scheduler renews every 30 s). */
  leaseMs?: number;
  /** File-exists checks: when set, named imports hold their scan until they are visible. */
  fileChecks?: FileCheckPolicy;
}

/**
 * Default cap of the trailing debounce: ten delays, but never more than 30
 * minutes (nor less than one delay). With plex_autoscan's 180 s delay a folder
 * that keeps receiving files is still scanned every 30 minutes.
 */
export function defaultMaxWaitMs(delayMs: number): number {
  return Math.max(delayMs, Math.min(10 * delayMs, 30 * 60_000));
}
