import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, startTestService, storedScans, TEST_PASS, type TestService } from "../helpers/service.js";
import { sonarr } from "./helpers.js";
import { get, PASSWORD, passwordHash, postLogin, sessionCookieOf, USER, withLogin } from "./login-helpers.js";

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

describe("the dashboard without a login configured", () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ SERVER_SCAN_DELAY: 3600 });
  });
  afterAll(async () => t?.stop());

  it("serves the page, the API and the actions with the pass alone, and has no login route", async () => {
    expect((await get(`${t.base}/`)).status).toBe(200);
    expect((await get(`${t.base}/api/queue`)).status).toBe(200);
    expect((await get(`${t.base}/api/history`)).status).toBe(200);
    expect((await postJson(`${t.base}/actions/clear-history`, { days: 30 })).status).toBe(200);
    const login = await get(`${t.base}/login`);
    expect(login.status).toBe(404);
    expect(((await login.json()) as { error: string }).error).toBe("no such route");
    expect((await fetch(`${t.base}/logout`, { method: "GET" })).status).toBe(404);
    expect(await (await get(`${t.base}/`)).text()).not.toContain('id="logout"');
  });
});

describe("the dashboard with a login configured", () => {
  let t: TestService;
  let hash: string;
  beforeAll(async () => {
    hash = await passwordHash();
    t = await startTestService({ SERVER_SCAN_DELAY: 3600, ...(await withLogin()) });
  });
  afterAll(async () => t?.stop());

  it("sends a browser without a session from the page to the login form", async () => {
    const slash = await get(`${t.base}/`, { accept: "text/html" });
    expect(slash.status).toBe(303);
    expect(slash.headers.get("location")).toBe("login");
    const bare = await get(t.base);
    expect(bare.status).toBe(303);
    expect(new URL(bare.headers.get("location") ?? "", t.base).href).toBe(`${t.base}/login`);
    expect((await get(`${t.base}/?state=failed`)).status).toBe(303);
    expect((await fetch(`${t.base}/`, { method: "HEAD", redirect: "manual" })).status).toBe(303);
  });

  it("answers 401 JSON for the API, the live parts and the actions without a session, and changes nothing", async () => {
    await postJson(t.base, sonarr("Locked"));
    const [id] = (
      (await (await fetch(`${t.base}/api/queue`, { headers: { cookie: await sessionCookieOf(t) } })).json()) as {
        pendingPage: Array<{ id: number }>;
      }
    ).pendingPage.map((s) => s.id);
    const before = storedScans(t).find((s) => s.folder === "/data/TV/Locked")?.state;
    expect(before).toBeDefined();
    for (const path of ["api/queue", "api/history", "fragment", "events", "dashboard.js"]) {
      const res = await get(`${t.base}/${path}`);
      expect(res.status, path).toBe(401);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(((await res.json()) as { error: string }).error).toMatch(/^log in first/);
    }
    const action = await postJson(`${t.base}/actions/cancel`, { id });
    expect(action.status).toBe(401);
    const plainForm = await fetch(`${t.base}/actions/cancel`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body: `id=${id}`,
    });
    expect(plainForm.status).toBe(303);
    expect(new URL(plainForm.headers.get("location") ?? "", `${t.base}/actions/cancel`).href).toBe(`${t.base}/login`);
    expect(storedScans(t).find((s) => s.folder === "/data/TV/Locked")?.state).toBe(before);
  });

  it("keeps the webhook routes open without a session: /<pass>, /api/<pass>, /<pass>/triggers and /health", async () => {
    expect((await postJson(t.base, sonarr("Webhook"))).status).toBe(202);
    // autoscan's routes answer 200 when queued, as autoscan does.
    expect((await postJson(`${t.base}/triggers/sonarr`, sonarr("Trigger"))).body.status).toBe("queued");
    expect((await postJson(`${t.origin}/triggers/sonarr`, sonarr("Basic"), { authorization: basic(USER, PASSWORD) })).body.status).toBe(
      "queued",
    );
    const legacy = await get(`${t.origin}/api/${TEST_PASS}?cmd=queue_count`);
    expect(legacy.status).toBe(200);
    expect(((await legacy.json()) as { queue_count: number }).queue_count).toBeGreaterThanOrEqual(3);
    expect((await get(`${t.origin}/health`)).status).toBe(200);
  });

  it("serves a plain login form that names no secret", async () => {
    const res = await get(`${t.base}/login`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<form method="post" action="login" id="login"');
    expect(html).toContain('type="password"');
    expect(html).not.toContain("<script");
    for (const secret of [TEST_PASS, hash, PASSWORD]) expect(html).not.toContain(secret);
  });

  it("logs in with the right login: a 303 to the dashboard and a session cookie with the safe attributes", async () => {
    const res = await postLogin(t, USER, PASSWORD);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("./");
    const cookie = res.headers.get("set-cookie") ?? "";
    const [pair, ...attributes] = cookie.split("; ");
    expect(pair).toMatch(/^scanarr_session=[A-Za-z0-9_-]{43}$/);
    // No Path: the browser scopes it to the login address's directory, the dashboard's base (see cookie.ts).
    expect(attributes.sort()).toEqual(["HttpOnly", "Max-Age=2592000", "SameSite=Strict"]);
    const page = await get(`${t.base}/`, { cookie: pair ?? "" });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`logged in as ${USER}`);
    for (const secret of [TEST_PASS, hash, PASSWORD, (pair ?? "").split("=")[1] ?? ""]) expect(html).not.toContain(secret);
    expect((await get(`${t.base}/api/queue`, { cookie: pair ?? "" })).status).toBe(200);
    expect((await get(`${t.base}/login`, { cookie: pair ?? "" })).headers.get("location")).toBe("./");
  });

  it("marks the cookie Secure when the request came over https through a proxy", async () => {
    const res = await postLogin(t, USER, PASSWORD, { "x-forwarded-proto": "https" });
    expect(res.headers.get("set-cookie")).toMatch(/; Secure$/);
  });

  it("refuses a wrong password or username with 401 and the form again, without a cookie", async () => {
    for (const [user, password] of [
      [USER, "guess-4711"],
      ["root", PASSWORD],
    ] as const) {
      const res = await postLogin(t, user, password, { "x-forwarded-for": "198.51.100.7" });
      expect(res.status).toBe(401);
      expect(res.headers.get("set-cookie")).toBeNull();
      const html = await res.text();
      expect(html).toContain("wrong username or password");
      expect(html).not.toContain(password);
    }
  });

  it("refuses a login POST from another site with 403 and no cookie", async () => {
    const res = await postLogin(t, USER, PASSWORD, {
      origin: "http://evil.example",
      "sec-fetch-site": "cross-site",
      "sec-fetch-mode": "navigate",
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await res.text()).toContain("from another site");
    const originOnly = await postLogin(t, USER, PASSWORD, { origin: "http://evil.example" });
    expect(originOnly.status).toBe(403);
  });

  it("logs out: the session ends on the server and the cookie is cleared", async () => {
    const cookie = await sessionCookieOf(t);
    const res = await fetch(`${t.base}/logout`, { method: "POST", redirect: "manual", headers: { cookie } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("login");
    expect(res.headers.get("set-cookie")).toBe("scanarr_session=; Max-Age=0; HttpOnly; SameSite=Strict");
    expect((await get(`${t.base}/api/queue`, { cookie })).status).toBe(401);
    expect((await fetch(`${t.base}/logout`, { method: "GET" })).status).toBe(405);
  });

  it("lets scripts use the JSON API and actions with HTTP Basic of the same login", async () => {
    const ok = await get(`${t.base}/api/queue`, { authorization: basic(USER, PASSWORD) });
    expect(ok.status).toBe(200);
    expect((await get(`${t.base}/api/history`, { authorization: basic(USER, "nope") })).status).toBe(401);
    // Basic does not open the page: a browser that remembered it would otherwise skip the form.
    expect((await get(`${t.base}/`, { authorization: basic(USER, PASSWORD) })).status).toBe(303);
    expect(t.logs()).not.toContain(PASSWORD);
    expect(t.logs()).not.toContain(hash);
  });
});
