import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, postJson, startTestService, type TestService } from "../helpers/service.js";

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ SERVER_SCAN_DELAY: 3600 });
});
afterAll(async () => t?.stop());

async function pendingFolders(): Promise<string[]> {
  const queue = (await (await fetch(`${t.base}/api/queue`)).json()) as { pending: Array<{ folder: string }> };
  return queue.pending.map((s) => s.folder);
}

const host = () => new URL(t.origin).host;

describe("browser requests from other sites are refused; API clients are not browsers", () => {
  it("refuses a cross-site form POST with 403 and the reason, and queues nothing", async () => {
    const res = await postForm(
      t.base,
      { eventType: "Manual", filepath: "/tv/Evil/" },
      { origin: "http://evil.example", "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate", accept: "text/html" },
    );
    expect(res.status).toBe(403);
    expect(res.text).toContain("from another site (Sec-Fetch-Site: cross-site)");
    expect(await pendingFolders()).not.toContain("/data/TV/Evil");
  });

  it("refuses a no-cors text/plain POST carrying JSON", async () => {
    const res = await fetch(t.base, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "http://evil.example", "sec-fetch-site": "cross-site", "sec-fetch-mode": "no-cors" },
      body: "eventType=Manual&filepath=/tv/Evil2/",
    });
    expect(res.status).toBe(403);
    expect(await pendingFolders()).not.toContain("/data/TV/Evil2");
  });

  it("refuses an older browser's cross-origin POST that sends only Origin, and an opaque Origin: null", async () => {
    for (const origin of ["http://evil.example", "null"]) {
      const res = await postForm(t.base, { eventType: "Manual", filepath: "/tv/Evil3/" }, { origin });
      expect(res.status).toBe(403);
      expect(res.text).toContain("from another origin");
    }
    expect(await pendingFolders()).not.toContain("/data/TV/Evil3");
  });

  it("accepts a same-origin browser POST, and one from a page behind a proxy that carries the page's form token", async () => {
    const same = await postForm(
      t.base,
      { eventType: "Manual", filepath: "/tv/Same/" },
      { origin: t.origin, "sec-fetch-site": "same-origin" },
    );
    expect(same.status).toBe(202);
    const oldBrowser = await postForm(t.base, { eventType: "Manual", filepath: "/tv/Old/" }, { origin: `http://${host()}` });
    expect(oldBrowser.status).toBe(202);
    const page = await (await fetch(t.base)).text();
    const token = /name="formToken" value="([^"]+)"/.exec(page)?.[1] ?? "";
    expect(token).not.toBe("");
    const proxied = await postForm(
      t.base,
      { eventType: "Manual", filepath: "/tv/Proxied/", formToken: token },
      { origin: "https://scanarr.example", "sec-fetch-site": "cross-site" },
    );
    expect(proxied.status).toBe(202);
    const forged = await postForm(
      t.base,
      { eventType: "Manual", filepath: "/tv/Forged/", formToken: "not-the-token" },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    );
    expect(forged.status).toBe(403);
  });

  it("accepts webhooks and scripts that send neither Origin nor Sec-Fetch-Site, as the *arr apps do", async () => {
    expect((await postJson(t.base, { eventType: "Manual", filepath: "/tv/Script/" })).status).toBe(202);
    const sonarr = await postJson(t.base, {
      eventType: "Download",
      series: { path: "/tv/Lost" },
      episodeFile: { relativePath: "Season 1/e.mkv" },
    });
    expect(sonarr.status).toBe(202);
  });
});
