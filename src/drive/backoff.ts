import { backoffDelay, type Backoff } from "../lib/backoff.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import { DriveApiError } from "./errors.js";
import type { DriveApi } from "./types.js";

export interface BackoffOptions {
  clock: Clock;
  random: () => number;
  logger: Logger;
  /** Tries in all, the first included. */
  maxAttempts?: number;
  signal?: AbortSignal;
}

/**
 * Google's truncated exponential backoff: 1 s, 2 s, 4 s … up to 32 s, each
 * plus up to 1 s of jitter so several pollers do not retry in step.
 */
export const GOOGLE_BACKOFF: Backoff = { baseMs: 1000, factor: 2, maxMs: 32_000, jitter: { addUpToMs: 1000 } };

/** Runs `call`, retrying retryable DriveApiErrors with backoff; anything else is thrown at once. */
export async function withBackoff<T>(what: string, call: () => Promise<T>, options: BackoffOptions): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 6;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const retryable = error instanceof DriveApiError && error.retryable;
      if (!retryable || attempt + 1 >= maxAttempts || options.signal?.aborted) throw error;
      const delay = backoffDelay(attempt + 1, GOOGLE_BACKOFF, options.random);
      options.logger.warn(
        { call: what, status: error.status, reason: error.reason, retryInMs: delay },
        "Drive API call failed, backing off",
      );
      await sleep(options.clock, delay, options.signal);
      if (options.signal?.aborted) throw error;
    }
  }
}

function sleep(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const handle = clock.setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }
    function onAbort(): void {
      clock.clearTimeout(handle);
      done();
    }
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The same DriveApi with every call wrapped in `withBackoff`. */
export function withRetries(api: DriveApi, options: BackoffOptions): DriveApi {
  return {
    getStartPageToken: (driveId) => withBackoff("changes.getStartPageToken", () => api.getStartPageToken(driveId), options),
    listChanges: (token, driveId) => withBackoff("changes.list", () => api.listChanges(token, driveId), options),
    listFolders: (driveId, token) => withBackoff("files.list", () => api.listFolders(driveId, token), options),
    getItem: (id) => withBackoff("files.get", () => api.getItem(id), options),
    listChildren: (id, foldersOnly, token) => withBackoff("files.list", () => api.listChildren(id, foldersOnly, token), options),
    listSharedDrives: (token) => withBackoff("drives.list", () => api.listSharedDrives(token), options),
  };
}
