import type { EnqueueOutcome, ScanRequest, ScanSink } from "../domain.js";
import { DatabaseUnwritableError } from "./storage/storage-errors.js";
import type { StorageWatch } from "./storage/storage-watch.js";

/** Writes requests inside the caller's transaction (the ScanQueue). */
export interface QueueWriter {
  enqueue(requests: ScanRequest[]): EnqueueOutcome;
}

/** Runs `fn` in one transaction and tells its events after the commit (ScanQueue.batch). */
export type Batch = <T>(fn: () => T) => T;

/**
 * The same writes made on a thread of their own (queue/thread/): committed
 * there, their events told on this side before `write` resolves.
 */
export interface RemoteWriter {
  /** Whether batches go to it now. */
  ready(): boolean;
  /** Told of every batch written on this side instead, so it may start itself once they come fast. */
  wrote(count: number): void;
  /**
   * The most requests one batch sent to it holds. Small batches keep both threads busy: this one
   * parses the next requests while that one commits, where a turn's whole batch left each waiting for the other.
   */
  batchSize: number;
  /** Each request list's outcome, once all of them are committed in one transaction. */
  write(requests: ScanRequest[][]): Promise<EnqueueOutcome[]>;
}

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
 *
 * With `remote` (the commit thread) ready, a batch goes there once it holds
 * `remote.batchSize` requests or the turn ends, while this thread goes on
 * parsing the next requests; several may be out at once, and the thread
 * commits them in the order they were sent.
 */
export function createGroupCommit(
  writer: QueueWriter,
  inOneTransaction: Batch,
  check: (requests: ScanRequest[]) => unknown,
  maxBatch = 512,
  storage?: Pick<StorageWatch, "problem" | "report">,
  remote?: RemoteWriter,
): ScanSink {
  const batch: Waiting[] = [];
  let scheduled = false;

  const fail = (items: Waiting[], error: unknown): void => {
    const failed = storage?.report(error) ? new DatabaseUnwritableError(storage.problem() ?? String(error)) : error;
    for (const item of items) item.reject(failed);
  };

  const schedule = (): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };

  const flush = (): void => {
    scheduled = false;
    const away = remote?.ready() === true;
    const items = batch.splice(0, away && remote ? remote.batchSize : maxBatch).filter((item) => {
      try {
        check(item.requests);
        return true;
      } catch (error) {
        item.reject(error);
        return false;
      }
    });
    if (batch.length > 0) schedule();
    if (items.length === 0) return;
    const refused = storage?.problem();
    if (refused !== undefined) {
      for (const item of items) item.reject(new DatabaseUnwritableError(refused));
      return;
    }
    if (away && remote) {
      remote.write(items.map((item) => item.requests)).then(
        (outcomes) => items.forEach((item, i) => item.resolve(outcomes[i] as EnqueueOutcome)),
        (error: unknown) => fail(items, error),
      );
      return;
    }
    let outcomes: EnqueueOutcome[];
    try {
      outcomes = inOneTransaction(() => items.map((item) => writer.enqueue(item.requests)));
    } catch (error) {
      fail(items, error);
      return;
    }
    items.forEach((item, i) => item.resolve(outcomes[i] as EnqueueOutcome));
    remote?.wrote(items.length);
  };

  return {
    enqueue: (requests) =>
      new Promise<EnqueueOutcome>((resolve, reject) => {
        batch.push({ requests, resolve, reject });
        if (batch.length >= (remote?.ready() ? remote.batchSize : maxBatch)) flush();
        else schedule();
      }),
  };
}
