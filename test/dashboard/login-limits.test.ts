import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { startTestService, type TestService } from "../helpers/service.js";
import { get, PASSWORD, postLogin, sessionCookieOf, USER, withLogin } from "./login-helpers.js";

const DAY = 86_400_000;

let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

function logLines(service: TestService): Array<{ msg: string; count?: number; remote?: string }> {
  return service
    .logs()
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string; count?: number });
}

describe("dashboard login limits, over real HTTP with an injected clock", () => {
  it("answers 429 with Retry-After on the 6th wrong password in a minute, even for the right one, until the minute is over", async () => {
    const clock = new ManualClock(Date.now());
    const locked = await startTestService(await withLogin(), { clock });
    t = locked;

    for (let i = 1; i <= 5; i++) {
      const res = await postLogin(locked, USER, `guess-${i}`);
      expect(res.status, `attempt ${i}`).toBe(401);
    }
    const sixth = await postLogin(locked, USER, "guess-6");
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get("retry-after")).toBe("60");
    expect(await sixth.text()).toContain("too many failed logins; try again in 60 s");
    const right = await postLogin(locked, USER, PASSWORD);
    expect(right.status).toBe(429);
    expect(right.headers.get("set-cookie")).toBeNull();

    // One warning at once, the rest counted into one summary when the minute ends: not a line per guess.
    expect(
      logLines(locked)
        .filter((l) => /dashboard login/.test(l.msg))
        .map((l) => l.msg),
    ).toEqual(["dashboard login refused"]);
    clock.advance(60_000);
    const summary = logLines(locked).filter((l) => /refused dashboard logins since/.test(l.msg));
    expect(summary).toHaveLength(1);
    expect(summary[0]?.count).toBe(6);
    expect(locked.logs()).not.toMatch(/guess-\d/);
    expect(locked.logs()).not.toContain(PASSWORD);

    expect((await postLogin(locked, USER, PASSWORD)).status).toBe(303);
  });

  it("ends a session after 7 days without a request, and any session 30 days after its login", async () => {
    const clock = new ManualClock(Date.now());
    t = await startTestService(await withLogin(), { clock });
    const service = t;
    const idle = await sessionCookieOf(service);
    const busy = await sessionCookieOf(service);
    const api = (cookie: string) => get(`${service.base}/api/queue`, { cookie }).then((r) => r.status);

    clock.advance(7 * DAY - 1);
    expect(await api(busy)).toBe(200);
    clock.advance(1);
    expect(await api(idle)).toBe(401);
    // Used every few days, the other one lives until 30 days after its login.
    for (let day = 7; day < 28; day += 3) {
      clock.advance(3 * DAY);
      expect(await api(busy)).toBe(200);
    }
    clock.advance(30 * DAY - (7 * DAY + 21 * DAY) - 1);
    expect(await api(busy)).toBe(200);
    clock.advance(1);
    expect(await api(busy)).toBe(401);
    const page = await get(`${service.base}/`, { cookie: busy });
    expect(page.status).toBe(303);
  });
});
