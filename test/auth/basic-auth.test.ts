import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "../../src/auth/password-hash.js";
import { ManualClock } from "../../src/lib/clock.js";
import { createBasicAuth } from "../../src/auth/basic-auth.js";
import { startTestService, storedScans, TEST_PASS, type TestService } from "../helpers/service.js";
import { startCompatServer } from "../compat/compat-server.js";

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

let hash: string;
beforeAll(async () => {
  hash = await hashPassword("s3cret pass");
});

function counted() {
  const calls: string[] = [];
  return {
    calls,
    verify: async (encoded: string, password: string) => {
      calls.push(password);
      return verifyPassword(encoded, password);
    },
  };
}

describe("HTTP Basic on /triggers", () => {
  it("accepts the right login and refuses a wrong password or username with 401 and a challenge", async () => {
    const auth = createBasicAuth({ login: { username: "arr", passwordHash: hash }, clock: new ManualClock() });
    expect(await auth.check(basic("arr", "s3cret pass"), "a")).toEqual({ ok: true });
    expect(await auth.check(basic("arr", "wrong"), "a")).toMatchObject({ ok: false, status: 401, challenge: true });
    expect(await auth.check(basic("ARR", "s3cret pass"), "a")).toMatchObject({ ok: false, status: 401 });
    expect(await auth.check("Bearer abc", "a")).toMatchObject({ ok: false, status: 401 });
    expect(await auth.check(undefined, "a")).toMatchObject({ ok: false, status: 401, challenge: true });
  });

  it("runs the password hash whether the username or the password is wrong, so timing tells neither apart", async () => {
    const probe = counted();
    const auth = createBasicAuth({ login: { username: "arr", passwordHash: hash }, clock: new ManualClock(), verify: probe.verify });
    await auth.check(basic("someone-else", "s3cret pass"), "a");
    await auth.check(basic("arr", "nope"), "b");
    expect(probe.calls).toEqual(["s3cret pass", "nope"]);
  });

  it("verifies a header once, then trusts it from the cache until the cache time runs out", async () => {
    const probe = counted();
    const clock = new ManualClock();
    const auth = createBasicAuth({ login: { username: "arr", passwordHash: hash }, clock, verify: probe.verify, cacheTtlMs: 60_000 });
    const header = basic("arr", "s3cret pass");
    for (let i = 0; i < 5; i++) expect(await auth.check(header, "a")).toEqual({ ok: true });
    expect(probe.calls).toHaveLength(1);
    clock.advance(60_001);
    expect(await auth.check(header, "a")).toEqual({ ok: true });
    expect(probe.calls).toHaveLength(2);
  });

  it("shares one verification among identical headers arriving together", async () => {
    const probe = counted();
    const auth = createBasicAuth({ login: { username: "arr", passwordHash: hash }, clock: new ManualClock(), verify: probe.verify });
    const header = basic("arr", "s3cret pass");
    const verdicts = await Promise.all(Array.from({ length: 8 }, () => auth.check(header, "a")));
    expect(verdicts.every((v) => v.ok)).toBe(true);
    expect(probe.calls).toHaveLength(1);
  });

  it("answers 429 with Retry-After after too many failures from one address, without hashing, until the window ends", async () => {
    const probe = counted();
    const clock = new ManualClock();
    const auth = createBasicAuth({
      login: { username: "arr", passwordHash: hash },
      clock,
      verify: probe.verify,
      maxFailures: 3,
      failureWindowMs: 30_000,
    });
    for (let i = 0; i < 3; i++) expect((await auth.check(basic("arr", `guess${i}`), "10.0.0.9")).ok).toBe(false);
    const limited = await auth.check(basic("arr", "s3cret pass"), "10.0.0.9");
    expect(limited).toMatchObject({ ok: false, status: 429, retryAfterSeconds: 30 });
    expect(probe.calls).toHaveLength(3);
    expect((await auth.check(basic("arr", "s3cret pass"), "10.0.0.10")).ok).toBe(true);
    clock.advance(30_000);
    expect((await auth.check(basic("arr", "s3cret pass"), "10.0.0.9")).ok).toBe(true);
  });

  it("counts identical headers arriving together as one attempt", async () => {
    const probe = counted();
    const auth = createBasicAuth({
      login: { username: "arr", passwordHash: hash },
      clock: new ManualClock(),
      verify: probe.verify,
      maxFailures: 2,
    });
    const verdicts = await Promise.all(Array.from({ length: 20 }, () => auth.check(basic("arr", "same guess"), "10.0.0.9")));
    expect(verdicts.map((v) => !v.ok && v.status)).toEqual(Array(20).fill(401));
    expect(probe.calls).toHaveLength(1);
    expect(await auth.check(basic("arr", "s3cret pass"), "10.0.0.9")).toEqual({ ok: true });
  });

  it("is off without a configured login, saying how to configure it", async () => {
    const auth = createBasicAuth({ login: { username: "", passwordHash: "" }, clock: new ManualClock() });
    const verdict = await auth.check(basic("arr", "s3cret pass"), "a");
    expect(verdict).toMatchObject({ ok: false, status: 401, challenge: false });
    expect(!verdict.ok && verdict.reason).toMatch(/SERVER_USERNAME.*scanarr passwd.*\/<SERVER_PASS>\/triggers/);
  });
});

describe("the /triggers routes over real HTTP", () => {
  let open: TestService;
  let locked: TestService;
  beforeAll(async () => {
    open = await startTestService();
    locked = await startTestService({ SERVER_USERNAME: "arr", SERVER_PASSWORD_HASH: hash });
  });
  afterAll(async () => {
    await open?.stop();
    await locked?.stop();
  });
  const test = JSON.stringify({ eventType: "Test", series: { path: "/tv/x" } });
  const send = (url: string, headers: Record<string, string> = {}) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: test });

  it("answers 401 on bare routes without a login configured, saying why, and serves the pass form", async () => {
    const bare = await send(`${open.origin}/triggers/sonarr`, { authorization: basic("arr", "s3cret pass") });
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toBeNull();
    expect(((await bare.json()) as { error: string }).error).toContain("not configured");
    expect((await send(`${open.origin}/${TEST_PASS}/triggers/sonarr`)).status).toBe(200);
  });

  it("challenges a request without credentials and refuses wrong ones with 401", async () => {
    const none = await send(`${locked.origin}/triggers/sonarr`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe('Basic realm="scanarr", charset="UTF-8"');
    expect((await send(`${locked.origin}/triggers/sonarr`, { authorization: basic("arr", "wrong") })).status).toBe(401);
    expect((await send(`${locked.origin}/triggers/sonarr`, { authorization: basic("arr", "s3cret pass") })).status).toBe(200);
    expect(locked.logs()).not.toContain("s3cret");
  });

  it("refuses a cross-site browser request even with good credentials", async () => {
    const good = { authorization: basic("arr", "s3cret pass") };
    expect((await send(`${locked.origin}/triggers/sonarr`, { ...good, origin: "https://evil.example" })).status).toBe(403);
    expect((await send(`${locked.origin}/triggers/sonarr`, { ...good, "sec-fetch-site": "cross-site" })).status).toBe(403);
    const host = new URL(locked.origin).host;
    expect((await send(`${locked.origin}/triggers/sonarr`, { ...good, origin: `http://${host}` })).status).toBe(200);
  });

  it("follows the dashboard's policy: a same-site page or an opaque origin is refused, a host in other letter case is the same host", async () => {
    const good = { authorization: basic("arr", "s3cret pass") };
    const sameSite = await send(`${locked.origin}/triggers/sonarr`, { ...good, "sec-fetch-site": "same-site" });
    expect(sameSite.status).toBe(403);
    expect(((await sameSite.json()) as { error: string }).error).toContain("Sec-Fetch-Site: same-site");
    expect((await send(`${locked.origin}/triggers/sonarr`, { ...good, origin: "null" })).status).toBe(403);
    expect((await send(`${locked.origin}/triggers/sonarr`, { ...good, "sec-fetch-site": "Same-Origin" })).status).toBe(200);
    const upper = `http://${new URL(locked.origin).host.toUpperCase()}`;
    expect((await send(`${locked.origin}/triggers/sonarr`, { ...good, origin: upper })).status).toBe(200);
  });

  it("refuses a cross-site GET that would queue through autopulse's ?path=", async () => {
    const res = await fetch(`${open.origin}/${TEST_PASS}/triggers/manual?path=${encodeURIComponent("/tv/Evil/S01E01.mkv")}`, {
      headers: { "sec-fetch-site": "same-site" },
    });
    expect(res.status).toBe(403);
    expect(storedScans(open).map((s) => s.folder)).not.toContain("/data/TV/Evil");
  });
});

describe("parallel wrong passwords over real HTTP", () => {
  it("verifies no more guesses than the limit and answers the rest 503 with Retry-After (a 429 would stop autoscan's client)", async () => {
    const probe = counted();
    const clock = new ManualClock(Date.now());
    const basicAuth = createBasicAuth({ login: { username: "arr", passwordHash: hash }, clock, verify: probe.verify });
    const server = await startCompatServer({
      clock,
      libraries: [],
      compat: { triggers: new Map([["sonarr", "sonarr"]]), basicAuth, hashCheck: async () => ({ status: "unchecked", reason: "unused" }) },
    });
    const send = (password: string) =>
      fetch(`${server.origin}/triggers/sonarr`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: basic("arr", password) },
        body: JSON.stringify({ eventType: "Test", series: { path: "/tv/x" } }),
      });
    try {
      const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => send(`guess-${i}`)));
      // The default limit: 10 attempts per address and minute.
      expect(probe.calls).toHaveLength(10);
      expect(answers.filter((r) => r.status === 401)).toHaveLength(10);
      const limited = answers.filter((r) => r.status === 503);
      expect(limited).toHaveLength(50);
      expect(new Set(limited.map((r) => r.headers.get("retry-after")))).toEqual(new Set(["60"]));

      // Inside the window the right password waits too, unverified, as on the login form.
      const early = await send("s3cret pass");
      expect(early.status).toBe(503);
      expect(probe.calls).toHaveLength(10);
      clock.advance(60_000);
      expect((await send("s3cret pass")).status).toBe(200);
      expect(probe.calls).toHaveLength(11);
    } finally {
      await server.close();
    }
  });
});
