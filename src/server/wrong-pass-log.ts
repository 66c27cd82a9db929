import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";

/** At most one warning line about wrong passes per this interval. */
export const WRONG_PASS_LOG_INTERVAL_MS = 60_000;

export interface WrongPassLog {
  /** Records one refused request; logs at once or counts it for the next summary line. */
  note(remote: string | undefined): void;
  /** Logs the pending count now (on shutdown) and stops the timer. */
  flush(): void;
}

/** What the warning lines call a refusal (the dashboard login counts its failures with the same log). */
export interface RefusalWords {
  /** The line for the first refusal in a quiet interval. */
  first: string;
  /** The summary's noun, after the count: one and many. */
  one: string;
  many: string;
}

const WRONG_PASS_WORDS: RefusalWords = {
  first: "request with a wrong pass refused",
  one: "request with a wrong pass",
  many: "requests with a wrong pass",
};

/**
 * The warning for requests with a wrong pass, rate-limited: someone guessing
 * passes at thousands of requests a second must not fill the disk with log
 * lines. The first one in a quiet interval is logged at once; the rest are
 * counted and summed up in one line when the interval ends.
 */
export function createWrongPassLog(
  logger: Logger,
  clock: Clock,
  intervalMs = WRONG_PASS_LOG_INTERVAL_MS,
  words: RefusalWords = WRONG_PASS_WORDS,
): WrongPassLog {
  let lastLoggedAt = -Infinity;
  let count = 0;
  let since = 0;
  let lastRemote: string | undefined;
  let timer: unknown;

  const summarize = () => {
    timer = undefined;
    if (count === 0) return;
    const at = new Date(since).toISOString();
    logger.warn({ count, since: at, lastRemote }, `${count} ${count === 1 ? words.one : words.many} since ${at}`);
    count = 0;
    lastLoggedAt = clock.now();
  };

  return {
    note(remote) {
      const now = clock.now();
      if (now - lastLoggedAt >= intervalMs && count === 0) {
        lastLoggedAt = now;
        logger.warn({ remote }, words.first);
        return;
      }
      if (count === 0) since = now;
      count += 1;
      lastRemote = remote;
      if (timer === undefined) timer = clock.setTimeout(summarize, Math.max(0, lastLoggedAt + intervalMs - now));
    },
    flush() {
      if (timer !== undefined) clock.clearTimeout(timer);
      summarize();
    },
  };
}
