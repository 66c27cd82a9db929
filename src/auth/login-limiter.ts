import type { Clock } from "../lib/clock.js";
import { BoundedMap } from "../lib/bounded-map.js";

export interface LoginLimiterOptions {
  clock: Clock;
  /** Failed attempts one address may make per window. */
  maxFailures?: number;
  windowMs?: number;
}

export interface LoginLimiter {
  /** Milliseconds until `remote` may try again, or 0 when it may try now. */
  blockedFor(remote: string): number;
  fail(remote: string): void;
  succeed(remote: string): void;
}

/**
 * Counts failed logins per client address in fixed windows. Each refused
 * guess costs an argon2 verification (~50 ms of CPU), so the limit protects
 * the CPU as much as the password.
 */
export function createLoginLimiter(options: LoginLimiterOptions): LoginLimiter {
  const { clock, maxFailures = 10, windowMs = 60_000 } = options;
  const windows = new BoundedMap<string, { start: number; failures: number }>(10_000);
  const current = (remote: string) => {
    const entry = windows.get(remote);
    return entry && clock.now() - entry.start < windowMs ? entry : undefined;
  };
  return {
    blockedFor(remote) {
      const entry = current(remote);
      return entry && entry.failures >= maxFailures ? entry.start + windowMs - clock.now() : 0;
    },
    fail(remote) {
      const entry = current(remote) ?? { start: clock.now(), failures: 0 };
      entry.failures += 1;
      windows.set(remote, entry);
    },
    succeed(remote) {
      windows.delete(remote);
    },
  };
}
