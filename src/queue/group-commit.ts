import type { Database } from "better-sqlite3";
import type { EnqueueOutcome, ScanRequest, ScanSink } from "../domain.js";

/** A sink whose callers wait for the shared commit of their batch. */
export type AsyncEnqueue = (requests: ScanRequest[]) => Promise<EnqueueOutcome>;

interface Waiting {
  requests: ScanRequest[];
  resolve: (outcome: EnqueueOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the HTTP path: every enqueue asked for during one turn of
 * the event loop is written in a single SQLite transaction, and each caller is
 * answered only after that commit — so a 2xx still means "on disk". One
 * BEGIN/COMMIT per request was most of serve's CPU under load. Each request
 * runs in its own savepoint: a bad one rolls back alone and fails alone.
 */
export function createGroupCommit(sink: ScanSink, db: Database, maxBatch = 512): AsyncEnqueue {
  let batch: Waiting[] = [];
  let scheduled = false;

  const flush = (): void => {
    scheduled = false;
    const items = batch;
    batch = [];
    if (items.length === 0) return;
    const results: Array<{ outcome: EnqueueOutcome } | { error: unknown }> = [];
    try {
      db.transaction(() => {
        for (const item of items) {
          try {
            results.push({ outcome: sink.enqueue(item.requests) });
          } catch (error) {
            results.push({ error });
          }
        }
      }).immediate();
    } catch (error) {
      for (const item of items) item.reject(error);
      return;
    }
    items.forEach((item, i) => {
      const result = results[i];
      if (result && "outcome" in result) item.resolve(result.outcome);
      else item.reject(result?.error);
    });
  };

  return (requests) =>
    new Promise<EnqueueOutcome>((resolve, reject) => {
      batch.push({ requests, resolve, reject });
      if (batch.length >= maxBatch) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
