import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, runBrowserTests } from "../helpers/chromium.js";
import { startTestService, type TestService } from "../helpers/service.js";
import { pendingOf, type ScanCounts } from "../../src/queue/views/scan-counts.js";

/** A page on another site (localhost, while scanarr is 127.0.0.1) that posts a form to scanarr as soon as it loads. */
async function startEvilSite(target: string, enctype: string): Promise<{ url: string; server: Server }> {
  const html = `<!doctype html><form id="f" method="post" action="${target}" enctype="${enctype}">
<input name="eventType" value="Manual"><input name="filepath" value="/tv/Forged/"></form>
<script>document.getElementById("f").submit()</script>`;
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(html));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, server };
}

describe.skipIf(!runBrowserTests)("a real browser posting to scanarr from another site", () => {
  let browser: Browser;
  let t: TestService;
  beforeAll(async () => {
    browser = await launchChromium();
    t = await startTestService({ SERVER_SCAN_DELAY: 3600 });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it.each(["application/x-www-form-urlencoded", "text/plain"])("is refused with 403 for a %s form and queues nothing", async (enctype) => {
    const evil = await startEvilSite(t.base, enctype);
    try {
      const page = await browser.newPage();
      const answer = page.waitForResponse((res) => res.url() === t.base);
      await page.goto(evil.url);
      expect((await answer).status()).toBe(403);
      const queue = (await (await fetch(`${t.base}/api/queue`)).json()) as { counts: ScanCounts };
      expect(pendingOf(queue.counts)).toBe(0);
    } finally {
      evil.server.close();
    }
  });
});
