import type { Database, Statement } from "better-sqlite3";
import { systemClock, type Clock } from "../../lib/clock.js";
import { DueReads } from "../due-reads.js";
import type { ScanRow } from "../rows.js";
import type { QueuedScan } from "../types.js";
import type { ScanCounts } from "./scan-counts.js";
import { ScanViews } from "./scan-views.js";

function prepareListStatements(db: Database) {
  const p = <P extends unknown[] = unknown[]>(sql: string): Statement<P> => db.prepare<P>(sql);
  return {
    pending: p<[number]>("SELECT * FROM scan_queue WHERE state IN ('open', 'closed') ORDER BY priority, due_at, id LIMIT ?"),
    unconfirmed: p<[number]>("SELECT * FROM scan_queue WHERE state = 'unconfirmed' ORDER BY finished_at DESC, id DESC LIMIT ?"),
    failed: p<[number]>("SELECT * FROM scan_queue WHERE state = 'failed' ORDER BY finished_at DESC, id DESC LIMIT ?"),
    // No index (every merge would move the scan in it): the manual page reads the table through.
    recent: p<[number]>("SELECT * FROM scan_queue ORDER BY last_requested_at DESC, id DESC LIMIT ?"),
  };
}

/**
 * The queue as the JSON API, the manual page and /health list it: the
 * queue's counts plus its scans as shown (state, reason, deliveries). Reads
 * only; the database is migrated before anyone reads it.
 */
export class QueueReads extends DueReads {
  private readonly lists: ReturnType<typeof prepareListStatements>;
  private readonly views: ScanViews;

  constructor(db: Database, clock: Pick<Clock, "now"> = systemClock) {
    super(db);
    this.lists = prepareListStatements(db);
    this.views = new ScanViews(db, clock);
  }

  /** Scans per shown state (one count for the pages, /health, /metrics and the API). */
  counts(): ScanCounts {
    return this.views.counts();
  }

  /** Scans waiting or being delivered, in delivery order (priority, then due time). */
  listPending(limit = 1_000): QueuedScan[] {
    return this.shown(this.lists.pending.all(limit) as ScanRow[]);
  }

  /** Scans that failed on at least one target, newest first. */
  listFailed(limit = 1_000): QueuedScan[] {
    return this.shown(this.lists.failed.all(limit) as ScanRow[]);
  }

  /** Scans Plex did not confirm (missing files in their deliveries' lastError), newest first. */
  listUnconfirmed(limit = 1_000): QueuedScan[] {
    return this.shown(this.lists.unconfirmed.all(limit) as ScanRow[]);
  }

  /** The latest scans by their last request, whatever their state. */
  recent(limit = 50): QueuedScan[] {
    return this.shown(this.lists.recent.all(limit) as ScanRow[]);
  }

  private shown(rows: ScanRow[]): QueuedScan[] {
    return this.views.show(rows).map(({ fileCount: _, ...scan }) => scan);
  }
}
