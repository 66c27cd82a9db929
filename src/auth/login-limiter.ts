import type { Clock } from "../lib/clock.js";
import { BoundedMap } from "../lib/bounded-map.js";

export interface LoginLimiterOptions {
  clock: Clock;
  /** Attempts one address may make per window that do not end in a success. */
  maxFailures?: number;
  windowMs?: number;
}

export interface LoginLimiter {
  /**
   * Counts an attempt from `remote` before its password is checked and
   * returns 0, or returns the milliseconds until `remote` may try again (and
   * counts nothing) when its window is used up.
   */
  reserve(remote: string): number;
  /** The password was right: forgets the address's attempts. */
  succeed(remote: string): void;
}

/**
 * Counts login attempts per client address in fixed windows. An attempt is
 * counted when it arrives, not when its argon2 check (~50 ms of CPU) ends, so
 * guesses sent in parallel get no more checks than guesses sent one by one:
 * the limit protects the CPU as much as the password.
 */
export function createLoginLimiter(options: LoginLimiterOptions): LoginLimiter {
  const { clock, maxFailures = 10, windowMs = 60_000 } = options;
  const windows = new BoundedMap<string, { start: number; failures: number }>(10_000);
  return {
    reserve(remote) {
      const now = clock.now();
      const found = windows.get(remote);
      const entry = found && now - found.start < windowMs ? found : { start: now, failures: 0 };
      if (entry.failures >= maxFailures) return entry.start + windowMs - now;
      entry.failures += 1;
      windows.set(remote, entry);
      return 0;
    },
    succeed(remote) {
      windows.delete(remote);
    },
  };
}
