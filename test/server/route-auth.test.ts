import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTES } from "../../src/server/route-list.js";
import type { Route } from "../../src/server/types.js";
import { PASSWORD, sessionCookieOf, USER, withLogin } from "../dashboard/login-helpers.js";
import { startTestService, TEST_PASS, type TestService } from "../helpers/service.js";

const BASIC = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;

/** A request to `route` with `pass` in its `:pass` segment and a plausible value in the others. */
async function call(t: TestService, route: Route, pass: string, headers: Record<string, string> = {}): Promise<Response> {
  const path = route.path.replace(":pass", pass).replace(":drive", "drive0").replace(":name", "sonarr");
  const method = route.methods === "*" ? "POST" : (route.methods[0] ?? "GET");
  const res = await fetch(`${t.origin}${path}`, { method, redirect: "manual", headers });
  await res.body?.cancel(); // the event stream never ends on its own
  return res;
}

const named = (auth: Route["auth"]) => ROUTES.filter((r) => r.auth === auth).map((r) => [`${r.path} ${r.methods}`, r] as const);

describe("every route of the route list enforces its auth kind", () => {
  let t: TestService;
  let session: string;
  beforeAll(async () => {
    t = await startTestService({ ...(await withLogin()), METRICS: { ENABLED: true }, SERVER_SCAN_DELAY: 3600 });
    session = await sessionCookieOf(t);
  });
  afterAll(async () => t?.stop());

  it.each([...named("pass"), ...named("login")])("%s: 401 with a wrong pass, whatever else the request carries", async (_, route) => {
    const res = await call(t, route, "not-the-pass", { cookie: session, authorization: BASIC });
    expect(res.status).toBe(401);
  });

  it.each(named("pass"))("%s: reached with the pass alone", async (_, route) => {
    expect([401, 404]).not.toContain((await call(t, route, TEST_PASS)).status);
  });

  it.each(named("login"))("%s: refused with the pass alone, reached with a session", async (_, route) => {
    const refused = await call(t, route, TEST_PASS, { accept: "application/json" });
    expect(refused.status).toBe(route.auth === "login" && route.part === "page" ? 303 : 401);
    expect([401, 404]).not.toContain((await call(t, route, TEST_PASS, { cookie: session })).status);
  });

  it.each(named("basic"))("%s: 401 with a challenge without credentials, reached with them", async (_, route) => {
    const refused = await call(t, route, TEST_PASS);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Basic /);
    expect([401, 404]).not.toContain((await call(t, route, TEST_PASS, { authorization: BASIC })).status);
  });

  it.each(named("none"))("%s: answers without any key", async (_, route) => {
    expect([401, 404]).not.toContain((await call(t, route, "")).status);
  });

  it("answers a path that is no route like its area: 401 without the key, 404 with it", async () => {
    expect((await fetch(`${t.origin}/not-the-pass/no/such/route`)).status).toBe(401);
    expect((await fetch(`${t.base}/no/such/route`)).status).toBe(404);
    expect((await fetch(`${t.origin}/triggers/a-train/x/extra`, { method: "POST" })).status).toBe(401);
    expect((await fetch(`${t.origin}/triggers/a-train/x/extra`, { method: "POST", headers: { authorization: BASIC } })).status).toBe(404);
  });

  it("checks the key before the method, then answers 405 with Allow", async () => {
    expect((await fetch(`${t.origin}/triggers/a-train/x`)).status).toBe(401);
    const wrongMethod = await fetch(`${t.origin}/triggers/a-train/x`, { headers: { authorization: BASIC } });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    const fragment = await fetch(`${t.base}/fragment`, { method: "DELETE" });
    expect(fragment.status).toBe(405);
    expect(fragment.headers.get("allow")).toBe("GET, HEAD");
  });
});
