import type { Logger } from "../lib/logger.js";
import { EventBuffer, type QueueEvent, type QueueListener } from "./events.js";
import { inTransaction, type Database } from "./storage/database.js";

/**
 * The writer's transactions and the events they tell: `run` is one
 * transaction, or part of the one under way; the events `tell`s of the
 * outermost call go out once it commits and are dropped if it rolls back.
 * (Inside a transaction the queue did not open, they go out when the call
 * returns: share a transaction through `batch`, never around the queue.)
 */
export class Committer {
  private readonly events: EventBuffer;
  private depth = 0;

  constructor(
    private readonly db: Database,
    logger: Logger,
  ) {
    this.events = new EventBuffer(logger);
  }

  subscribe(listener: QueueListener): () => void {
    return this.events.subscribe(listener);
  }

  tell(event: QueueEvent): void {
    this.events.hold(event);
  }

  /** Publishes events another connection already committed (never inside a transaction of this one). */
  announce(events: readonly QueueEvent[]): void {
    if (this.depth > 0) throw new Error("announce inside a transaction");
    for (const event of events) this.events.hold(event);
    this.events.publish();
  }

  run<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.depth = 1;
    let result: T;
    try {
      result = inTransaction(this.db, fn);
    } catch (error) {
      this.events.discard();
      throw error;
    } finally {
      this.depth = 0;
    }
    this.events.publish();
    return result;
  }
}
