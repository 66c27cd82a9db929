import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { verifyPassword } from "../../src/auth/password-hash.js";
import { ManualClock } from "../../src/lib/clock.js";
import { createLogger } from "../../src/lib/logger.js";
import { createDashboardLogin } from "../../src/server/login/dashboard-login.js";
import { createSessionStore } from "../../src/server/login/sessions.js";
import { PASSWORD, passwordHash, USER } from "./login-helpers.js";

const silent = createLogger({ level: "silent", format: "json" });
const withCookie = (cookie: string) => ({ headers: { cookie } }) as unknown as IncomingMessage;

describe("dashboard sessions", () => {
  it("hands out distinct 32-byte ids and finds only those, ignoring ids of any other shape", () => {
    const store = createSessionStore({ clock: new ManualClock() });
    const a = store.create("admin");
    const b = store.create("admin");
    expect(a).not.toBe(b);
    expect(Buffer.from(a, "base64url")).toHaveLength(32);
    expect(store.find(a)?.user).toBe("admin");
    expect(store.find(`${a.slice(0, 42)}x`)).toBeUndefined();
    expect(store.find(`${a}=`)).toBeUndefined();
    expect(store.find("")).toBeUndefined();
    store.end(a);
    expect(store.find(a)).toBeUndefined();
    expect(store.find(b)?.user).toBe("admin");
  });

  it("holds at most the configured number, dropping the oldest login and the expired ones first", () => {
    const clock = new ManualClock();
    const store = createSessionStore({ clock, maxSessions: 3, idleMs: 1_000 });
    const first = store.create("admin");
    clock.advance(600);
    const ids = [store.create("admin"), store.create("admin")];
    expect(store.size).toBe(3);
    clock.advance(500); // `first` is idle for 1.1 s now: swept, not counted against the limit.
    ids.push(store.create("admin"));
    expect(store.size).toBe(3);
    expect(store.find(first)).toBeUndefined();
    ids.push(store.create("admin"));
    expect(store.size).toBe(3);
    expect(ids.map((id) => store.find(id) !== undefined)).toEqual([false, true, true, true]);
  });
});

describe("the dashboard login", () => {
  it("is absent when no login is configured, so the dashboard behaves as before", () => {
    const clock = new ManualClock();
    expect(createDashboardLogin({ login: { username: "", passwordHash: "" }, clock, logger: silent })).toBeUndefined();
    expect(createDashboardLogin({ login: { username: "admin", passwordHash: "" }, clock, logger: silent })).toBeUndefined();
  });

  it("counts a burst of parallel guesses before hashing them, so at most five get an argon2 verification", async () => {
    const calls: string[] = [];
    const login = createDashboardLogin({
      login: { username: USER, passwordHash: await passwordHash() },
      clock: new ManualClock(),
      logger: silent,
      verify: (hash, password) => {
        calls.push(password);
        return verifyPassword(hash, password);
      },
    });
    const verdicts = await Promise.all(Array.from({ length: 12 }, (_, i) => login?.logIn(USER, `guess-${i}`, "203.0.113.5")));
    expect(verdicts.map((v) => (v?.ok ? 200 : v?.status))).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    expect(calls).toHaveLength(5);
    const other = await login?.logIn(USER, PASSWORD, "203.0.113.6");
    expect(other?.ok).toBe(true);
    if (!other?.ok) return;
    expect(login?.sessionUser(withCookie(`theme=dark; scanarr_session=${other.sessionId}`))).toBe(USER);
    expect(login?.sessionUser(withCookie("scanarr_session=forged"))).toBeUndefined();
  });
});
