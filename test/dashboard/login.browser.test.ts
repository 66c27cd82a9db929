import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, runBrowserTests } from "../helpers/chromium.js";
import { startPrefixProxy, type PrefixProxy } from "../helpers/prefix-proxy.js";
import { postJson, startTestService, TEST_PASS, type TestService } from "../helpers/service.js";
import { shot as shotIn, sonarr } from "./helpers.js";
import { PASSWORD, passwordHash, USER, withLogin } from "./login-helpers.js";

const shot = (page: Page, name: string) => shotIn(page, "dashboard-login", name);

async function logIn(page: Page, password = PASSWORD): Promise<void> {
  await page.fill("#username", USER);
  await page.fill("#password", password);
  await Promise.all([page.waitForNavigation(), page.click("#login-submit")]);
}

describe.skipIf(!runBrowserTests)("the dashboard login in a real browser", () => {
  let browser: Browser;
  let t: TestService | undefined;
  let proxy: PrefixProxy | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await proxy?.close();
    await t?.stop();
    proxy = undefined;
    t = undefined;
  });

  it("logs in through the form, sees the queue with live updates, and logs out", async () => {
    t = await startTestService({ SERVER_SCAN_DELAY: 600, ...(await withLogin()) });
    await postJson(t.base, sonarr("Lost"));
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(t.base);
    expect(page.url()).toBe(`${t.base}/login`);
    await logIn(page, "not it");
    expect(await page.textContent("#login-problem")).toBe("wrong username or password");
    expect(await page.inputValue("#username")).toBe(USER);
    await shot(page, "wrong-password");
    await logIn(page);
    expect(page.url()).toBe(`${t.base}/`);
    expect(await page.locator("#pending tbody tr", { hasText: "/data/TV/Lost" }).count()).toBe(1);
    expect(await page.textContent("#logout")).toContain(`logged in as ${USER}`);

    const [cookie, ...others] = await context.cookies();
    expect(others).toEqual([]);
    expect(cookie).toMatchObject({ name: "scanarr_session", path: `/${TEST_PASS}`, httpOnly: true, sameSite: "Strict", secure: false });
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Session cookies would end with the browser; this one lives 30 days (the server ends it after 7 idle ones).
    expect((cookie?.expires ?? 0) * 1000 - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(await page.evaluate("document.cookie")).toBe("");

    // The live updates pass through the session too.
    await expect.poll(() => page.evaluate("document.documentElement.dataset.live")).toBe("on");
    await postJson(t.base, sonarr("Fringe"));
    await expect.poll(() => page.locator("#pending tbody tr", { hasText: "/data/TV/Fringe" }).count(), { timeout: 10_000 }).toBe(1);
    const html = await page.content();
    for (const secret of [TEST_PASS, PASSWORD, await passwordHash(), cookie?.value ?? "-"]) expect(html).not.toContain(secret);
    await shot(page, "logged-in");

    await Promise.all([page.waitForNavigation(), page.click("#logout button")]);
    expect(page.url()).toBe(`${t.base}/login`);
    expect(await context.cookies()).toEqual([]);
    await page.goto(`${t.base}/`);
    expect(page.url()).toBe(`${t.base}/login`);
    await context.close();
  });

  it("logs in and runs an action with JavaScript off", async () => {
    t = await startTestService({ SERVER_SCAN_DELAY: 600, ...(await withLogin()) });
    await postJson(t.base, sonarr("Lost"));
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(t.base);
    await logIn(page);
    const row = page.locator("#pending tbody tr", { hasText: "/data/TV/Lost" });
    await Promise.all([page.waitForNavigation(), row.locator("button", { hasText: "Cancel" }).click()]);
    expect(await page.textContent("#action-result")).toMatch(/scan \d+ is now cancelled/);
    expect(t.logs()).toMatch(/"action":"cancel".*"user":"admin".*"msg":"dashboard action"/);
    await context.close();
  });

  it("behind a proxy under /scanarr/, scopes the cookie to /scanarr/<pass> and works through it", async () => {
    t = await startTestService({ SERVER_SCAN_DELAY: 600, ...(await withLogin()) });
    proxy = await startPrefixProxy("/scanarr", t.origin);
    const base = `${proxy.origin}/scanarr/${TEST_PASS}`;
    await postJson(`${base}`, sonarr("Lost"));
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${base}/`);
    expect(page.url()).toBe(`${base}/login`);
    await logIn(page);
    expect(page.url()).toBe(`${base}/`);
    expect(await page.locator("#pending tbody tr", { hasText: "/data/TV/Lost" }).count()).toBe(1);
    const [cookie] = await context.cookies();
    expect(cookie?.path).toBe(`/scanarr/${TEST_PASS}`);
    await page.locator("#pending tbody tr", { hasText: "/data/TV/Lost" }).locator("button", { hasText: "Cancel" }).click();
    await expect.poll(() => page.textContent("#action-result"), { timeout: 10_000 }).toMatch(/scan \d+ is now cancelled/);
    expect(t.logs()).toMatch(/"action":"cancel".*"forwardedFor":"127\.0\.0\.1".*"user":"admin"/);
    await context.close();
  });
});
