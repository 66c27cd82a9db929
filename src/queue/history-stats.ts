import type { Database, Statement } from "better-sqlite3";
import { ensureHistoryIndexes } from "./history.js";

export const HOUR_MS = 3_600_000;

/** Finished deliveries of one target in one hour (`hour`: the hour's start, epoch ms). */
export interface HourCount {
  target: string;
  hour: number;
  n: number;
}

/** Time from a scan's first request to the media server confirming it, over the confirmed deliveries of a window. */
export interface ConfirmLatency {
  count: number;
  medianMs: number | null;
  p95Ms: number | null;
}

/** What the dashboard charts: finished scans by state since a time, deliveries per hour and target, latency. */
export interface HistoryStats {
  /** Scans finished since `since`, by stored state (done, unconfirmed, failed, cancelled). */
  totals: Record<string, number>;
  perHour: HourCount[];
  latency: ConfirmLatency;
}

// Every query walks the history index from `since` on: its cost is the rows
// in the window, whatever the history holds before it.
const IN_WINDOW = `FROM scan_queue s INDEXED BY scan_queue_history
  JOIN scan_delivery d INDEXED BY scan_delivery_scan_target ON d.scan_id = s.id
  WHERE s.finished_at IS NOT NULL AND s.finished_at >= @since AND s.finished_at < @until`;

/** Read-only statistics over the finished scans (the dashboard's "Activity"). */
export class QueueStats {
  private readonly totals: Statement<[{ since: number; until: number }]>;
  private readonly perHour: Statement<[{ since: number; until: number }]>;
  private readonly latency: Statement<[{ since: number; until: number }]>;

  constructor(db: Database) {
    ensureHistoryIndexes(db);
    this.totals = db.prepare(
      `SELECT state, COUNT(*) AS n FROM scan_queue INDEXED BY scan_queue_history
       WHERE finished_at IS NOT NULL AND finished_at >= @since AND finished_at < @until GROUP BY state`,
    );
    // Skipped (no library there) and cancelled deliveries never reached the target.
    this.perHour = db.prepare(
      `SELECT d.target AS target, (s.finished_at / ${HOUR_MS}) * ${HOUR_MS} AS hour, COUNT(*) AS n ${IN_WINDOW}
       AND d.state IN ('done', 'unconfirmed', 'failed') GROUP BY target, hour ORDER BY hour, target`,
    );
    // Nearest-rank percentiles: the ceil(p * n)-th smallest value.
    this.latency = db.prepare(
      `SELECT COUNT(*) AS count, MIN(CASE WHEN r = (total * 50 + 99) / 100 THEN ms END) AS medianMs,
       MIN(CASE WHEN r = (total * 95 + 99) / 100 THEN ms END) AS p95Ms
       FROM (SELECT ms, row_number() OVER (ORDER BY ms) AS r, COUNT(*) OVER () AS total
             FROM (SELECT json_extract(d.confirm, '$.confirmedAfterMs') AS ms ${IN_WINDOW} AND d.state = 'done' AND d.confirm IS NOT NULL)
             WHERE ms IS NOT NULL)`,
    );
  }

  /** Scans finished in [since, until) by state. */
  finishedByState(since: number, until: number): Record<string, number> {
    const rows = this.totals.all({ since, until }) as Array<{ state: string; n: number }>;
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  }

  /** Finished deliveries per target and hour in [since, until), oldest hour first; hours without any are absent. */
  deliveriesPerHour(since: number, until: number): HourCount[] {
    return this.perHour.all({ since, until }) as HourCount[];
  }

  /** Median and 95th percentile of the time to confirmation of deliveries finished in [since, until). */
  confirmLatency(since: number, until: number): ConfirmLatency {
    return this.latency.get({ since, until }) as ConfirmLatency;
  }
}
