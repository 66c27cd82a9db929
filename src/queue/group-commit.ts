import type { EnqueueOutcome, ScanRequest, ScanSink } from "../domain.js";
import { DatabaseUnwritableError } from "./storage/storage-errors.js";
import type { StorageWatch } from "./storage/storage-watch.js";

/** Writes requests inside the caller's transaction (the ScanQueue). */
export interface QueueWriter {
  enqueue(requests: ScanRequest[]): EnqueueOutcome;
}

/** Runs `fn` in one transaction and tells its events after the commit (ScanQueue.batch). */
export type Batch = <T>(fn: () => T) => T;

interface Waiting {
  requests: ScanRequest[];
  resolve: (outcome: EnqueueOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * The ScanSink every source enqueues through. Group commit: every enqueue
 * asked for during one turn of the event loop is written in a single SQLite
 * transaction, and each caller is answered only after that commit — so a 2xx
 * still means "on disk". One
 * BEGIN/COMMIT per request was most of serve's CPU under load. A request
 * whose folders `check` refuses fails alone, before anything is written; an
 * error while writing rolls the whole batch back and fails every caller of
 * it, so nothing half-written is ever acknowledged. The transaction is the
 * queue's own (`batch`), so the queue's events go out after that commit.
 *
 * With `storage`, a batch is refused without trying while the database
 * cannot write (disk full), and a write that fails for that reason is
 * reported to it; either way the callers get a DatabaseUnwritableError.
 */
export function createGroupCommit(
  writer: QueueWriter,
  inOneTransaction: Batch,
  check: (requests: ScanRequest[]) => unknown,
  maxBatch = 512,
  storage?: Pick<StorageWatch, "problem" | "report">,
): ScanSink {
  let batch: Waiting[] = [];
  let scheduled = false;

  const flush = (): void => {
    scheduled = false;
    const items = batch.filter((item) => {
      try {
        check(item.requests);
        return true;
      } catch (error) {
        item.reject(error);
        return false;
      }
    });
    batch = [];
    if (items.length === 0) return;
    const refused = storage?.problem();
    if (refused !== undefined) {
      for (const item of items) item.reject(new DatabaseUnwritableError(refused));
      return;
    }
    let outcomes: EnqueueOutcome[];
    try {
      outcomes = inOneTransaction(() => items.map((item) => writer.enqueue(item.requests)));
    } catch (error) {
      const failed = storage?.report(error) ? new DatabaseUnwritableError(storage.problem() ?? String(error)) : error;
      for (const item of items) item.reject(failed);
      return;
    }
    items.forEach((item, i) => item.resolve(outcomes[i] as EnqueueOutcome));
  };

  return {
    enqueue: (requests) =>
      new Promise<EnqueueOutcome>((resolve, reject) => {
        batch.push({ requests, resolve, reject });
        if (batch.length >= maxBatch) flush();
        else if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      }),
  };
}
