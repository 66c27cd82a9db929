import type { IncomingMessage } from "node:http";
import { createCredentialCheck, hasLogin, type Login } from "../../auth/credentials.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/logger.js";
import type { BasicAuth } from "../../auth/basic-auth.js";
import { createLoginLimiter } from "../../auth/login-limiter.js";
import { createWrongPassLog } from "../wrong-pass-log.js";
import { readCookies, SESSION_COOKIE } from "./cookie.js";
import { createSessionStore, SESSION_MAX_AGE_MS } from "./sessions.js";

/** Failed logins one address may make per minute before it gets 429. */
export const LOGIN_MAX_FAILURES = 5;

export interface DashboardLoginOptions {
  login: Login;
  clock: Clock;
  logger: Logger;
  /** The /triggers HTTP Basic check of the same login: scripts may send Basic on the JSON API and actions. */
  basic?: BasicAuth;
  /** Replaces argon2 verification (tests count calls with it). */
  verify?: (hash: string, password: string) => Promise<boolean>;
  idleMs?: number;
  maxAgeMs?: number;
  maxSessions?: number;
  maxFailures?: number;
  failureWindowMs?: number;
}

export type LoginVerdict =
  | { ok: true; sessionId: string }
  | { ok: false; status: 401; reason: string }
  | { ok: false; status: 429; reason: string; retryAfterSeconds: number };

export type BasicVerdict = { ok: true; user: string } | { ok: false; status: 401 | 429; reason: string; retryAfterSeconds?: number };

/** The optional login in front of the dashboard (SERVER_USERNAME + SERVER_PASSWORD_HASH). */
export interface DashboardLogin {
  /** How long a session may live at most (the cookie's Max-Age). */
  readonly maxAgeMs: number;
  /** The user of the live session the request's cookie names, if any. */
  sessionUser(req: IncomingMessage): string | undefined;
  /** The user an `Authorization: Basic` header proves; undefined when the request sends none. */
  basicUser(req: IncomingMessage, remote: string): Promise<BasicVerdict | undefined>;
  /** Checks the form's username and password; rate-limited per client address. */
  logIn(username: string, password: string, remote: string): Promise<LoginVerdict>;
  /** Ends the session the request's cookie names. */
  logOut(req: IncomingMessage): void;
  /** Logs the failures counted but not yet reported (on shutdown). */
  flush(): void;
}

/**
 * The dashboard login, or undefined when none is configured (then the
 * dashboard behaves as before: the pass in the path is its only key). The
 * credential check and the per-address limiter are the ones /triggers uses.
 */
export function createDashboardLogin(options: DashboardLoginOptions): DashboardLogin | undefined {
  const { login, clock, logger } = options;
  if (!hasLogin(login)) return undefined;
  const maxAgeMs = options.maxAgeMs ?? SESSION_MAX_AGE_MS;
  const sessions = createSessionStore({ clock, idleMs: options.idleMs, maxAgeMs, maxSessions: options.maxSessions });
  const checkCredentials = createCredentialCheck(login, options.verify);
  const limiter = createLoginLimiter({ clock, maxFailures: options.maxFailures ?? LOGIN_MAX_FAILURES, windowMs: options.failureWindowMs });
  const failures = createWrongPassLog(logger, clock, undefined, {
    first: "dashboard login refused",
    one: "refused dashboard login",
    many: "refused dashboard logins",
  });

  return {
    maxAgeMs,
    sessionUser(req) {
      for (const id of readCookies(req, SESSION_COOKIE)) {
        const session = sessions.find(id);
        if (session) return session.user;
      }
      return undefined;
    },
    async basicUser(req, remote) {
      const header = req.headers.authorization;
      if (header === undefined || options.basic === undefined) return undefined;
      const verdict = await options.basic.check(header, remote);
      return verdict.ok ? { ok: true, user: login.username } : verdict;
    },
    async logIn(username, password, remote) {
      // Counted before the hash is checked, so a burst of parallel guesses is limited too; a success clears it.
      const wait = limiter.reserve(remote);
      if (wait > 0) {
        failures.note(remote);
        const retryAfterSeconds = Math.ceil(wait / 1000);
        return { ok: false, status: 429, reason: `too many failed logins; try again in ${retryAfterSeconds} s`, retryAfterSeconds };
      }
      if (!(await checkCredentials(username, password))) {
        failures.note(remote);
        return { ok: false, status: 401, reason: "wrong username or password" };
      }
      limiter.succeed(remote);
      logger.info({ user: login.username, remote }, "dashboard login");
      return { ok: true, sessionId: sessions.create(login.username) };
    },
    logOut(req) {
      for (const id of readCookies(req, SESSION_COOKIE)) sessions.end(id);
    },
    flush: () => failures.flush(),
  };
}
