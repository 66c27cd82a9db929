import { readFile } from "node:fs/promises";
import type { Browser } from "playwright-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../src/cli/authorize.js";
import { startFakeOAuth, type FakeOAuth } from "../fakes/oauth.js";
import { launchChromium, runBrowserTests } from "../helpers/chromium.js";
import { CLIENT, createHarness, type Harness } from "./harness.js";

describe.skipIf(!runBrowserTests)("scanarr authorize with a real browser", () => {
  let fake: FakeOAuth;
  let h: Harness;
  let browser: Browser;

  beforeEach(async () => {
    fake = await startFakeOAuth(CLIENT);
    h = await createHarness(fake);
    browser = await launchChromium();
  });

  afterEach(async () => {
    await browser.close();
    await fake.close();
    await h.cleanup();
  });

  it("finishes when headless Chromium follows the consent redirect to the loopback listener", async () => {
    const finished = run({}, h.ctx);
    const [url] = await h.stdout.waitFor(/http:\/\/127\.0\.0\.1:\d+\/o\/oauth2\/v2\/auth\?\S+/);
    const page = await browser.newPage();
    await page.goto(url);

    expect(await page.textContent("body")).toContain("You can close this tab");
    expect(await finished).toBe(0);
    const stored = JSON.parse(await readFile(h.ctx.paths.tokenFile, "utf8")) as { access_token: string };
    expect(stored.access_token).toBe(fake.issuedAccessTokens[0]);
  });
});
