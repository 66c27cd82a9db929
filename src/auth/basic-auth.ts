import { createHash } from "node:crypto";
import { createCredentialCheck, hasLogin, type Login } from "./credentials.js";
import type { Clock } from "../lib/clock.js";
import { KeyedSingleFlight } from "../lib/single-flight.js";
import { BoundedMap } from "../lib/bounded-map.js";
import { createLoginLimiter } from "./login-limiter.js";

export type BasicVerdict = { ok: true } | { ok: false; status: 401 | 429; reason: string; challenge: boolean; retryAfterSeconds?: number };

export interface BasicAuth {
  readonly configured: boolean;
  check(header: string | undefined, remote: string): Promise<BasicVerdict>;
}

export interface BasicAuthOptions {
  login: Login;
  clock: Clock;
  /** Replaces argon2 verification (tests count calls with it). */
  verify?: (hash: string, password: string) => Promise<boolean>;
  /** How long a verified Authorization header is trusted without re-hashing. */
  cacheTtlMs?: number;
  cacheSize?: number;
  maxFailures?: number;
  failureWindowMs?: number;
}

const NOT_CONFIGURED =
  "HTTP Basic login is not configured (set SERVER_USERNAME and run `scanarr passwd`); use /<SERVER_PASS>/triggers/... instead";

/**
 * HTTP Basic for the autoscan-style routes. A header that verified is
 * remembered by its SHA-256 for a few minutes, so an *arr sending the same
 * header on every webhook pays the argon2 cost once; identical headers
 * arriving together share one verification and count as one attempt. Any
 * other header counts against its address's limit before it is verified,
 * as the login form's attempts do.
 */
export function createBasicAuth(options: BasicAuthOptions): BasicAuth {
  const { clock, login } = options;
  if (!hasLogin(login)) {
    return { configured: false, check: async () => ({ ok: false, status: 401, reason: NOT_CONFIGURED, challenge: false }) };
  }
  const ttl = options.cacheTtlMs ?? 5 * 60_000;
  const verified = new BoundedMap<string, number>(options.cacheSize ?? 256);
  const inFlight = new KeyedSingleFlight<string, boolean>();
  const checkCredentials = createCredentialCheck(login, options.verify);
  const limiter = createLoginLimiter({ clock, maxFailures: options.maxFailures, windowMs: options.failureWindowMs });

  const verifyHeader = (key: string, header: string): Promise<boolean> =>
    inFlight.run(key, () => {
      const credentials = decodeBasic(header);
      return credentials ? checkCredentials(credentials.username, credentials.password) : Promise.resolve(false);
    });

  return {
    configured: true,
    async check(header, remote) {
      if (header === undefined || header === "") return { ok: false, status: 401, reason: "login required (HTTP Basic)", challenge: true };
      const key = createHash("sha256").update(header).digest("hex");
      const until = verified.get(key);
      if (until !== undefined && until > clock.now()) return { ok: true };
      let work = inFlight.get(key);
      if (work === undefined) {
        // Reserved before the hash is checked (nothing awaits in between), so parallel guesses are limited too.
        const wait = limiter.reserve(remote);
        if (wait > 0) {
          const retryAfterSeconds = Math.ceil(wait / 1000);
          return {
            ok: false,
            status: 429,
            reason: `too many failed logins; retry in ${retryAfterSeconds} s`,
            challenge: false,
            retryAfterSeconds,
          };
        }
        work = verifyHeader(key, header);
      }
      if (await work) {
        verified.set(key, clock.now() + ttl);
        limiter.succeed(remote);
        return { ok: true };
      }
      verified.delete(key);
      return { ok: false, status: 401, reason: "wrong username or password", challenge: true };
    },
  };
}

function decodeBasic(header: string): { username: string; password: string } | undefined {
  const match = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const text = Buffer.from(match[1], "base64").toString("utf8");
  const colon = text.indexOf(":");
  if (colon < 0) return undefined;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}
