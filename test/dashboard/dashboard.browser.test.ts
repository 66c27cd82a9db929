import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, runBrowserTests } from "../helpers/chromium.js";
import { postJson, startTestService, storedScans, type TestService } from "../helpers/service.js";

import { shot as shotIn, sonarr } from "./helpers.js";

const shot = (page: Page, name: string) => shotIn(page, "dashboard", name);

describe.skipIf(!runBrowserTests)("the dashboard in a real browser", () => {
  let browser: Browser;
  let t: TestService | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  it("shows a pending scan with its due time, and 'scan now' makes it reach Plex", async () => {
    t = await startTestService({ SERVER_SCAN_DELAY: 600 });
    expect((await postJson(t.base, sonarr("Lost"))).status).toBe(202);
    const page = await browser.newPage();
    await page.goto(`${t.base}/`);
    const row = page.locator("#pending tbody tr", { hasText: "/data/TV/Lost" });
    const cell = row.locator("td.state-debouncing");
    expect(await cell.textContent()).toMatch(
      /^debouncing \(in 10 min\)debouncing until \d\d:\d\d:\d\d: requests for the folder are merged/,
    );
    // Only what means something while it debounces: no Retry.
    expect(await row.locator("button").allTextContents()).toEqual(["Scan now", "Cancel"]);
    const due = await cell.locator("time").getAttribute("title");
    expect(due).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    await shot(page, "pending");
    await row.locator("button", { hasText: "Scan now" }).click();
    await t.plex.waitForRefreshes(1);
    expect(t.plex.refreshes).toEqual([{ sectionId: "2", path: "/data/TV/Lost" }]);
    await expect
      .poll(() => page.locator("#history tbody tr[data-state=done]", { hasText: "/data/TV/Lost" }).count(), { timeout: 10_000 })
      .toBe(1);
    expect(await page.textContent("#action-result")).toMatch(/scan \d+ is now (queued|delivering|done)/);
    expect(t.logs()).toMatch(/"action":"scan-now".*"remote":"127\.0\.0\.1".*"msg":"dashboard action"/);
    await shot(page, "after-scan-now");
  });

  it("retries a failed scan, and filters the history by state and text", async () => {
    t = await startTestService();
    t.plex.setMode(400, "refresh");
    await postJson(t.base, sonarr("Lost"));
    await postJson(t.base, sonarr("Fringe"));
    await expect.poll(() => storedScans(t as TestService).map((s) => s.state), { timeout: 10_000 }).toEqual(["failed", "failed"]);
    t.plex.setMode("ok", "refresh");
    await postJson(t.base, sonarr("Heroes"));
    await t.plex.waitForRefreshes(1);
    await expect.poll(() => storedScans(t as TestService).filter((s) => s.state === "done").length, { timeout: 10_000 }).toBe(1);

    const page = await browser.newPage();
    await page.goto(`${t.base}/?state=failed`);
    expect(await page.locator("#history tbody tr").count()).toBe(2);
    await page.goto(t.base);
    await page.selectOption("#filter select[name=state]", "failed");
    await page.fill("#filter input[name=q]", "lost");
    await Promise.all([page.waitForNavigation(), page.click("#filter button")]);
    expect(await page.locator("#history tbody tr").allTextContents()).toEqual([expect.stringContaining("/data/TV/Lost")]);
    await shot(page, "history-filtered");

    await page.locator("#history tbody tr", { hasText: "/data/TV/Lost" }).locator("button", { hasText: "Retry" }).click();
    await t.plex.waitForRefreshes(2);
    expect(t.plex.refreshes.map((r) => r.path)).toEqual(["/data/TV/Heroes", "/data/TV/Lost"]);
    await expect.poll(() => storedScans(t as TestService).map((s) => s.state), { timeout: 10_000 }).toEqual(["done", "failed", "done"]);
  });

  it("updates live when a webhook arrives, without a reload", async () => {
    t = await startTestService({ SERVER_SCAN_DELAY: 600 });
    const page = await browser.newPage();
    await page.goto(t.base);
    await expect.poll(() => page.evaluate("document.documentElement.dataset.live")).toBe("on");
    // A reload would lose this marker: the update must come in place.
    await page.evaluate("window.marker = true");
    await postJson(t.base, sonarr("Lost"));
    await expect.poll(() => page.locator("#pending tbody tr", { hasText: "/data/TV/Lost" }).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.evaluate("window.marker")).toBe(true);
    await shot(page, "live-update");
  });

  it("works as plain HTML forms with JavaScript off: a manual scan, then cancel", async () => {
    t = await startTestService({ SERVER_SCAN_DELAY: 600 });
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(t.base);
    await page.fill("#filepath", "/movies/Arrival (2016)/Arrival (2016).mkv");
    await Promise.all([page.waitForNavigation(), page.click("#submit")]);
    expect(await page.textContent("h1")).toBe("Scan queued");
    await page.goto(t.base);
    const row = page.locator("#pending tbody tr", { hasText: "/data/Movies/Arrival (2016)" });
    await Promise.all([page.waitForNavigation(), row.locator("button", { hasText: "Cancel" }).click()]);
    expect(await page.textContent("#action-result")).toMatch(/scan \d+ is now cancelled/);
    expect(await page.locator("#history tbody tr[data-state=cancelled]").count()).toBe(1);
    await shot(page, "no-js-cancelled");
    await context.close();
    expect(t.plex.refreshes).toEqual([]);
  });

  it("traces a path like scanarr map", async () => {
    t = await startTestService();
    const page = await browser.newPage();
    await page.goto(t.base);
    await page.fill("#trace-path", "/movies/Arrival (2016)/Arrival (2016).mkv");
    await Promise.all([page.waitForNavigation(), page.click("#tester button")]);
    const trace = await page.textContent("#trace");
    expect(trace).toContain("media-server path: /data/Movies/Arrival (2016)/Arrival (2016).mkv");
    expect(trace).toContain("folder to scan: /data/Movies/Arrival (2016)");
    expect(trace).toContain("plex: /data/Movies/Arrival (2016) → library Movies (/data/Movies)");
  });

  it("shows which regular-expression rewrite changed the path", async () => {
    t = await startTestService({ SERVER_PATH_REWRITES: [{ FROM: "^/archive/(\\d{4})/([^/]+)/", TO: "/movies/$2 ($1)/" }] });
    const page = await browser.newPage();
    await page.goto(t.base);
    await page.fill("#trace-path", "/archive/2016/Arrival/Arrival.mkv");
    await Promise.all([page.waitForNavigation(), page.click("#tester button")]);
    const trace = await page.textContent("#trace");
    expect(trace).toContain(
      "rewritten by SERVER_PATH_REWRITES[0] (^/archive/(\\d{4})/([^/]+)/ → /movies/$2 ($1)/): /movies/Arrival (2016)/Arrival.mkv",
    );
    expect(trace).toContain("plex: /data/Movies/Arrival (2016) → library Movies (/data/Movies)");
  });
});
