import type { Database, Statement } from "better-sqlite3";
import type { ScanRow } from "../rows.js";
import { systemClock, type Clock } from "../../lib/clock.js";
import type { ScanCounts } from "./scan-counts.js";
import { ScanViews, type ListedScan } from "./scan-views.js";
import type { HistoryState } from "../shown-state.js";

export { HISTORY_STATES, type HistoryState } from "../shown-state.js";

export interface HistoryFilter {
  state?: HistoryState;
  source?: string;
  target?: string;
  /** A substring of the folder (case-insensitive for ASCII). */
  text?: string;
}

/** Where a page starts: the last row of the page before it. */
export interface HistoryCursor {
  finishedAt: number;
  id: number;
}

export interface PendingCursor {
  priority: number;
  dueAt: number;
  id: number;
}

export interface Page<C> {
  scans: ListedScan[];
  /** The cursor of the next page; absent on the last one. */
  next?: C;
}

// Both lists are keyset pages over an index in their own order (made by the
// queue's migrations), so a page costs its rows whatever the history holds.
// Files shown per scan; a season pack names hundreds, the API counts them all.
const FILES_SHOWN = 20;

const FILTERS = `(@state IS NULL OR state = @state) AND (@source IS NULL OR source = @source)
  AND (@target IS NULL OR EXISTS (SELECT 1 FROM scan_delivery d WHERE d.scan_id = scan_queue.id AND d.target = @target))
  AND (@text IS NULL OR instr(lower(folder), lower(@text)) > 0)`;

interface HistoryParams {
  state: string | null;
  source: string | null;
  target: string | null;
  text: string | null;
  finishedAt: number;
  id: number;
  limit: number;
}

export function prepareHistory(db: Database) {
  const p = <P extends unknown[] = unknown[]>(sql: string): Statement<P> => db.prepare<P>(sql);
  return {
    historyPage: p<[HistoryParams]>(
      `SELECT * FROM scan_queue INDEXED BY scan_queue_history WHERE finished_at IS NOT NULL
       AND (finished_at < @finishedAt OR (finished_at = @finishedAt AND id < @id)) AND ${FILTERS}
       ORDER BY finished_at DESC, id DESC LIMIT @limit`,
    ),
    pendingPage: p<[number, number, number, number]>(
      `SELECT * FROM scan_queue INDEXED BY scan_queue_pending_order WHERE state IN ('open', 'closed')
       AND (priority, due_at, id) > (?, ?, ?) ORDER BY priority, due_at, id LIMIT ?`,
    ),
    byId: p<[number]>("SELECT * FROM scan_queue WHERE id = ?"),
  };
}

export type HistoryStatements = ReturnType<typeof prepareHistory>;

export type { ListedScan } from "./scan-views.js";

/** Read-only paged views of the queue for the dashboard and the JSON API. */
export class QueueBrowser {
  private readonly st: HistoryStatements;
  private readonly views: ScanViews;

  constructor(db: Database, clock: Pick<Clock, "now"> = systemClock) {
    this.st = prepareHistory(db);
    this.views = new ScanViews(db, clock);
  }

  history(filter: HistoryFilter, limit: number, after?: HistoryCursor): Page<HistoryCursor> & { scans: ListedScan[] } {
    const rows = this.st.historyPage.all({
      state: filter.state ?? null,
      source: filter.source || null,
      target: filter.target || null,
      text: filter.text || null,
      finishedAt: after?.finishedAt ?? Number.MAX_SAFE_INTEGER,
      id: after?.id ?? Number.MAX_SAFE_INTEGER,
      limit: limit + 1,
    }) as ScanRow[];
    const scans = this.detailed(rows.slice(0, limit));
    const last = rows.length > limit ? rows[limit - 1] : undefined;
    return { scans, next: last ? { finishedAt: last.finished_at ?? 0, id: last.id } : undefined };
  }

  pending(limit: number, after?: PendingCursor): Page<PendingCursor> & { scans: ListedScan[] } {
    const start = after ?? { priority: Number.MIN_SAFE_INTEGER, dueAt: Number.MIN_SAFE_INTEGER, id: 0 };
    const rows = this.st.pendingPage.all(start.priority, start.dueAt, start.id, limit + 1) as ScanRow[];
    const scans = this.detailed(rows.slice(0, limit));
    const last = rows.length > limit ? rows[limit - 1] : undefined;
    return { scans, next: last ? { priority: last.priority, dueAt: last.due_at, id: last.id } : undefined };
  }

  /** One scan, whatever its state. */
  scan(id: number): ListedScan | undefined {
    const row = this.st.byId.get(id) as ScanRow | undefined;
    return row && this.detailed([row])[0];
  }

  /** Scans per shown state (src/queue/views/scan-counts.ts). */
  counts(): ScanCounts {
    return this.views.counts();
  }

  private detailed(rows: ScanRow[]): ListedScan[] {
    return this.views.show(rows, FILES_SHOWN);
  }
}
