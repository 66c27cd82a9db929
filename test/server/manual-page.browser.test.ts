import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, runBrowserTests } from "../helpers/chromium.js";
import { startTestService, type TestService } from "../helpers/service.js";

describe.skipIf(!runBrowserTests)("the manual scan page in a real browser", () => {
  let browser: Browser;
  let t: TestService;
  beforeAll(async () => {
    browser = await launchChromium();
    t = await startTestService();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it("submits a mount path, shows it queued, and the mapped folder reaches Plex and shows done", async () => {
    const page = await browser.newPage();
    await page.goto(t.base);
    expect(await page.title()).toContain("manual scan");
    await page.fill("#filepath", "/movies/Arrival (2016)/Arrival (2016).mkv");
    await Promise.all([page.waitForNavigation(), page.click("#submit")]);
    expect(await page.textContent("h1")).toBe("Scan queued");
    expect(await page.textContent("#result")).toContain("queued: /data/Movies/Arrival (2016)");

    await t.plex.waitForRefreshes(1);
    expect(t.plex.refreshes).toEqual([{ sectionId: "1", path: "/data/Movies/Arrival (2016)" }]);

    await page.goto(t.base);
    // The dashboard's history lists it as done (the live update swaps it in without a reload).
    const row = page.locator("#history tbody tr", { hasText: "/data/Movies/Arrival (2016)" });
    await expect.poll(async () => ((await row.count()) > 0 ? row.getAttribute("data-state") : null), { timeout: 10_000 }).toBe("done");
  });

  it("shows why a path was refused", async () => {
    const page = await browser.newPage();
    await page.goto(t.base);
    await page.fill("#filepath", "/movies/../etc/passwd");
    await Promise.all([page.waitForNavigation(), page.click("#submit")]);
    expect(await page.textContent("h1")).toBe("Not queued");
    expect(await page.textContent("#result")).toContain("'..' segment");
  });
});
