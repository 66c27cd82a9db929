import type { Database, Statement } from "better-sqlite3";

export const HOUR_MS = 3_600_000;

/** Finished deliveries of one target in one hour (`hour`: the hour's start, epoch ms), by when they finished. */
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

// Each query reads its window from a covering index (the queue's migrations
// make them: partial, only finished deliveries have entries); the latency
// reads at most LATENCY_SAMPLE rows.
/** The latest confirmations the median and 95th percentile are taken from. */
export const LATENCY_SAMPLE = 1_000;

interface Window {
  since: number;
  until: number;
}

/** Read-only statistics over the finished scans (the dashboard's "Activity"). */
export class QueueStats {
  private readonly totals: Statement<[Window]>;
  private readonly perHour: Statement<[Window & { targets: string }]>;
  private readonly latency: Statement<[Window]>;

  constructor(db: Database) {
    this.totals = db.prepare(
      `SELECT state, COUNT(*) AS n FROM scan_queue INDEXED BY scan_queue_state_finished
       WHERE state IN ('done', 'unconfirmed', 'failed', 'cancelled') AND finished_at >= @since AND finished_at < @until GROUP BY state`,
    );
    // One index range count per target and hour: no sort of the window's rows.
    // Skipped (no library there) and cancelled deliveries never reached the target.
    this.perHour = db.prepare(
      `WITH RECURSIVE hours (h) AS (SELECT @since UNION ALL SELECT h + ${HOUR_MS} FROM hours WHERE h + ${HOUR_MS} < @until)
       SELECT * FROM (SELECT t.value AS target, h AS hour,
         (SELECT COUNT(*) FROM scan_delivery INDEXED BY scan_delivery_finished WHERE target = t.value
          AND state IN ('done', 'unconfirmed', 'failed') AND updated_at >= h AND updated_at < MIN(h + ${HOUR_MS}, @until)) AS n
         FROM hours, json_each(@targets) AS t) WHERE n > 0 ORDER BY hour, target`,
    );
    // Nearest-rank percentiles (the ceil(p * n)-th smallest) of the latest confirmations in the window.
    this.latency = db.prepare(
      `SELECT COUNT(*) AS count, MIN(CASE WHEN r = (total * 50 + 99) / 100 THEN ms END) AS medianMs,
       MIN(CASE WHEN r = (total * 95 + 99) / 100 THEN ms END) AS p95Ms
       FROM (SELECT ms, row_number() OVER (ORDER BY ms) AS r, COUNT(*) OVER () AS total
             FROM (SELECT json_extract(confirm, '$.confirmedAfterMs') AS ms FROM scan_delivery INDEXED BY scan_delivery_confirmed
                   WHERE state = 'done' AND confirm IS NOT NULL AND updated_at >= @since AND updated_at < @until
                   ORDER BY updated_at DESC LIMIT ${LATENCY_SAMPLE})
             WHERE ms IS NOT NULL)`,
    );
  }

  /** Scans finished in [since, until) by state. */
  finishedByState(since: number, until: number): Record<string, number> {
    const rows = this.totals.all({ since, until }) as Array<{ state: string; n: number }>;
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  }

  /** Finished deliveries of each of `targets` per hour from `since` (an hour's start) to `until`, oldest hour first; hours without any are absent. */
  deliveriesPerHour(targets: readonly string[], since: number, until: number): HourCount[] {
    return this.perHour.all({ since, until, targets: JSON.stringify(targets) }) as HourCount[];
  }

  /** Median and 95th percentile of the time to confirmation of the latest LATENCY_SAMPLE deliveries confirmed in [since, until). */
  confirmLatency(since: number, until: number): ConfirmLatency {
    return this.latency.get({ since, until }) as ConfirmLatency;
  }
}
