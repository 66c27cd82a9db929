import { backoffDelay } from "../lib/backoff.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import { addToBatch, emptyBatch, isEmpty, type Batch } from "./batch.js";
import type { NotifyEvent } from "./events.js";
import type { SendResult } from "./send.js";
import { messageOf } from "../lib/errors.js";

export interface ChannelPolicy {
  /** A message carries what came in during this window; two messages are at least this far apart. */
  windowMs: number;
  /** Attempts per message before it is dropped. */
  maxAttempts: number;
  /** Wait before attempt n+1 when the receiver did not say (n starts at 1). */
  backoffMs(attempt: number): number;
  /** A Retry-After longer than this is cut to it (a misbehaving receiver must not hold the channel for days). */
  maxRetryAfterMs: number;
}

export const DEFAULT_POLICY: ChannelPolicy = {
  windowMs: 60_000,
  maxAttempts: 5,
  // 10 s, 30 s, 90 s, 4.5 min: one receiver's outage needs no jitter.
  backoffMs: (attempt) => backoffDelay(attempt, { baseMs: 10_000, factor: 3, maxMs: Infinity }),
  maxRetryAfterMs: 15 * 60_000,
};

export interface ChannelDeps {
  /** Only the receiver's host: the rest of its URL may be a token. */
  host: string;
  clock: Clock;
  logger: Logger;
  policy: ChannelPolicy;
  /** Makes one attempt at a batch (format + post). */
  send(batch: Batch): Promise<SendResult>;
}

/**
 * One receiver: events wait in a batch that goes out one window after its
 * first event (so a burst becomes one message with counts), at most one
 * message per window; a message that fails is tried again with backoff (or
 * when Retry-After says) while new events wait for the next one.
 */
export class Channel {
  private next: Batch = emptyBatch();
  private firstAt = 0;
  private lastSentAt = -Infinity;
  private timer: unknown;
  private inFlight: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: ChannelDeps) {}

  add(event: NotifyEvent): void {
    if (this.stopped) return;
    if (isEmpty(this.next)) this.firstAt = this.deps.clock.now();
    addToBatch(this.next, event);
    this.arm();
  }

  /** Resolves when no attempt is under way (tests wait on it before moving the clock). */
  async settled(): Promise<void> {
    while (this.inFlight) await this.inFlight;
  }

  /** Drops what waits (logged) and waits for an attempt under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.next.events.length + this.next.omitted;
    if (waiting > 0) this.deps.logger.info({ host: this.deps.host, events: waiting }, "notifications not sent: scanarr is stopping");
    await this.settled();
  }

  private arm(): void {
    if (this.timer !== undefined || this.inFlight || this.stopped || isEmpty(this.next)) return;
    const { clock, policy } = this.deps;
    const at = Math.max(this.firstAt, this.lastSentAt) + policy.windowMs;
    this.timer = clock.setTimeout(() => {
      this.timer = undefined;
      const batch = this.next;
      this.next = emptyBatch();
      this.attempt(batch, 1);
    }, at - clock.now());
  }

  private attempt(batch: Batch, n: number): void {
    const run = this.deps
      .send(batch)
      .catch((error: unknown): SendResult => ({ kind: "retry", reason: messageOf(error) }))
      .then((result) => this.settle(batch, n, result));
    const tracked: Promise<void> = run.finally(() => {
      if (this.inFlight === tracked) this.inFlight = undefined;
      this.arm();
    });
    this.inFlight = tracked;
  }

  private settle(batch: Batch, n: number, result: SendResult): void {
    const { clock, logger, policy, host } = this.deps;
    const events = batch.events.length + batch.omitted;
    if (result.kind === "sent") {
      logger.debug({ host, events, attempt: n }, "notification sent");
    } else if (result.kind === "retry" && n < policy.maxAttempts && !this.stopped) {
      const waitMs = Math.min(result.afterMs ?? policy.backoffMs(n), policy.maxRetryAfterMs);
      logger.debug({ host, reason: result.reason, attempt: n, retryInMs: waitMs }, "notification not accepted; trying again");
      this.timer = clock.setTimeout(() => {
        this.timer = undefined;
        this.attempt(batch, n + 1);
      }, waitMs);
      return;
    } else if (this.stopped) {
      logger.info({ host, events }, "notification not sent: scanarr is stopping");
    } else {
      logger.warn({ host, reason: result.reason, attempts: n, events }, "notification dropped: the receiver did not accept it");
    }
    this.lastSentAt = clock.now();
  }
}
