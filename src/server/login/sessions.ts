import { createHash, randomBytes } from "node:crypto";
import type { Clock } from "../../lib/clock.js";

/** A session ends after this long without a request… */
export const SESSION_IDLE_MS = 7 * 86_400_000;
/** …and this long after the login, however busy. */
export const SESSION_MAX_AGE_MS = 30 * 86_400_000;
/** Sessions held at once; the oldest login is dropped beyond it. */
export const SESSION_LIMIT = 1_000;

export interface SessionStoreOptions {
  clock: Clock;
  idleMs?: number;
  maxAgeMs?: number;
  maxSessions?: number;
}

export interface Session {
  readonly user: string;
  readonly createdAt: number;
  lastSeenAt: number;
}

export interface SessionStore {
  /** Starts a session and returns its id (32 random bytes, base64url): the cookie's value. */
  create(user: string): string;
  /** The live session an id names, its idle time reset; undefined when unknown or expired. */
  find(id: string): Session | undefined;
  end(id: string): void;
  readonly size: number;
}

// 32 bytes in base64url, no padding.
const ID_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Dashboard sessions, in memory: a restart logs everyone out, which is also
 * what makes `scanarr passwd` + restart end every session. Sessions are keyed
 * by the SHA-256 of their id, so neither a lookup's timing nor a heap dump
 * gives away a usable id.
 */
export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const { clock, idleMs = SESSION_IDLE_MS, maxAgeMs = SESSION_MAX_AGE_MS, maxSessions = SESSION_LIMIT } = options;
  const sessions = new Map<string, Session>();
  const expired = (s: Session, now: number) => now - s.lastSeenAt >= idleMs || now - s.createdAt >= maxAgeMs;

  const sweep = () => {
    const now = clock.now();
    for (const [key, s] of sessions) if (expired(s, now)) sessions.delete(key);
    // Map order is creation order: the first entries are the oldest logins.
    for (const key of sessions.keys()) {
      if (sessions.size < maxSessions) break;
      sessions.delete(key);
    }
  };

  return {
    create(user) {
      // Logins are rare (and rate-limited), so a full sweep here keeps the map small at no real cost.
      sweep();
      const id = randomBytes(32).toString("base64url");
      const now = clock.now();
      sessions.set(keyOf(id), { user, createdAt: now, lastSeenAt: now });
      return id;
    },
    find(id) {
      if (!ID_SHAPE.test(id)) return undefined;
      const key = keyOf(id);
      const session = sessions.get(key);
      if (session === undefined) return undefined;
      const now = clock.now();
      if (expired(session, now)) {
        sessions.delete(key);
        return undefined;
      }
      session.lastSeenAt = now;
      return session;
    },
    end(id) {
      sessions.delete(keyOf(id));
    },
    get size() {
      return sessions.size;
    },
  };
}

function keyOf(id: string): string {
  return createHash("sha256").update(id).digest("hex");
}
