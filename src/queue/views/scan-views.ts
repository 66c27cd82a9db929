import type { Database, Statement } from "better-sqlite3";
import { groupBy } from "../../lib/group-by.js";
import { systemClock, type Clock } from "../../lib/clock.js";
import { prepareHoldStatements, readHolds, type HoldStatements } from "../holds.js";
import type { DeliveryRow, ScanRow } from "../rows.js";
import { toQueuedScan } from "./queued-scan.js";
import { countScans, prepareCountStatements, type CountStatements, type ScanCounts } from "./scan-counts.js";
import type { FileRow } from "../scan-files.js";
import { originsOf, prepareRequestStatements, type RequestStatements } from "../scan-requests.js";
import type { Hold, ShownContext } from "../shown-state.js";
import type { QueuedScan } from "../types.js";

/** A scan as the lists show it: the queue's view plus how many files it names in all. */
export interface ListedScan extends QueuedScan {
  fileCount: number;
}

// Origins shown per scan (the latest); `scanarr status` reads them all.
const ORIGINS_SHOWN = 5;

function prepareViewStatements(db: Database) {
  const p = <P extends unknown[] = unknown[]>(sql: string): Statement<P> => db.prepare<P>(sql);
  return {
    deliveriesIn: p<[string]>("SELECT * FROM scan_delivery WHERE scan_id IN (SELECT value FROM json_each(?)) ORDER BY scan_id, target"),
    filesIn: p<[string, number]>(
      `SELECT scanId, path, deletion, seen FROM (SELECT scan_id AS scanId, path, deletion, seen,
       row_number() OVER (PARTITION BY scan_id ORDER BY path) AS n FROM scan_file WHERE scan_id IN (SELECT value FROM json_each(?)))
       WHERE n <= ? ORDER BY scanId, path`,
    ),
    fileCounts: p<[string]>(
      "SELECT scan_id AS scanId, COUNT(*) AS n FROM scan_file WHERE scan_id IN (SELECT value FROM json_each(?)) GROUP BY scan_id",
    ),
  };
}

/**
 * How stored scans are shown: their shown state, reason and actions (from
 * their rows, the holds and the clock), and the counts per shown state. The
 * queue's reads, the dashboard's pages and `scanarr status` all go through it.
 */
export class ScanViews {
  private readonly st: ReturnType<typeof prepareViewStatements>;
  private readonly hst: HoldStatements;
  private readonly rst: RequestStatements;
  private readonly cst: CountStatements;

  constructor(
    db: Database,
    private readonly clock: Pick<Clock, "now"> = systemClock,
  ) {
    this.st = prepareViewStatements(db);
    this.hst = prepareHoldStatements(db);
    this.rst = prepareRequestStatements(db);
    this.cst = prepareCountStatements(db);
  }

  holds(): Hold[] {
    return readHolds(this.hst);
  }

  context(): ShownContext {
    return { now: this.clock.now(), holds: this.holds() };
  }

  /** Scans per shown state (src/queue/views/scan-counts.ts). */
  counts(): ScanCounts {
    const { now, holds } = this.context();
    return countScans(this.cst, now, holds);
  }

  /** `rows` as shown, each with up to `filesShown` of its files. */
  show(rows: readonly ScanRow[], filesShown = Number.MAX_SAFE_INTEGER): ListedScan[] {
    if (rows.length === 0) return [];
    const ctx = this.context();
    const ids = JSON.stringify(rows.map((r) => r.id));
    const deliveries = groupBy(this.st.deliveriesIn.all(ids) as DeliveryRow[], (d) => d.scan_id);
    const files = groupBy(this.st.filesIn.all(ids, filesShown) as Array<FileRow & { scanId: number }>, (f) => f.scanId);
    const fileCounts = new Map((this.st.fileCounts.all(ids) as Array<{ scanId: number; n: number }>).map((r) => [r.scanId, r.n]));
    const origins = groupBy(originsOf(this.rst, ids, ORIGINS_SHOWN), (o) => o.scanId);
    return rows.map((row) => ({
      ...toQueuedScan(
        row,
        deliveries.get(row.id) ?? [],
        files.get(row.id) ?? [],
        (origins.get(row.id) ?? []).map(({ scanId: _, ...o }) => o),
        ctx,
      ),
      fileCount: fileCounts.get(row.id) ?? 0,
    }));
  }
}
