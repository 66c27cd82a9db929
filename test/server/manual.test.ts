import { afterEach, describe, expect, it } from "vitest";
import { postForm, postJson, startTestService, TEST_PASS, type TestService } from "../helpers/service.js";
import { pendingOf, type ScanCounts } from "../../src/queue/views/scan-counts.js";

let t: TestService | undefined;
afterEach(async () => {
  await t?.stop();
  t = undefined;
});

describe("manual scan requests", () => {
  it("queues a form-encoded request (what curl -d sends) and it reaches Plex as the mapped folder", async () => {
    t = await startTestService();
    const res = await postForm(t.base, { eventType: "Manual", filepath: "/movies/Heat (1995)/Heat (1995).mkv" });
    expect(res.status).toBe(202);
    expect(JSON.parse(res.text)).toMatchObject({ status: "queued", source: "manual", queued: ["/data/Movies/Heat (1995)"] });
    await t.plex.waitForRefreshes(1);
    expect(t.plex.refreshes[0]).toEqual({ sectionId: "1", path: "/data/Movies/Heat (1995)" });
  });

  it("queues every filepath of a form that names several, not only the last", async () => {
    t = await startTestService();
    const res = await fetch(t.base, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "eventType=Manual&filepath=/tv/F1/Season+01&filepath=/tv/F2/Season+01",
    });
    expect(res.status).toBe(202);
    expect(((await res.json()) as { queued: string[] }).queued.sort()).toEqual(["/data/TV/F1/Season 01", "/data/TV/F2/Season 01"]);
  });

  it("accepts the same request as JSON and a cloud-drive path", async () => {
    t = await startTestService();
    const res = await postJson(t.base, { eventType: "Manual", filepath: "My Drive/Media/TV/Severance/Season 1" });
    expect(res.status).toBe(202);
    expect(res.body.queued).toEqual(["/data/TV/Severance/Season 1"]);
  });

  it("answers the browser form with an HTML page saying what was queued", async () => {
    t = await startTestService();
    const res = await postForm(
      t.base,
      { eventType: "Manual", filepath: "/tv/Lost/Season 1/" },
      { accept: "text/html,application/xhtml+xml" },
    );
    expect(res.status).toBe(202);
    expect(res.text).toContain("<h1>Scan queued</h1>");
    expect(res.text).toContain("queued: /data/TV/Lost/Season 1");
  });

  it("serves the manual page with a form and the latest scans", async () => {
    t = await startTestService();
    await postForm(t.base, { eventType: "Manual", filepath: "/tv/Lost/Season 1/" });
    const res = await fetch(t.base);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toContain('name="filepath"');
    expect(html).toContain('name="eventType" value="Manual"');
    // Paths may wrap after each "/" (a <wbr>), never inside a name.
    expect(html.replaceAll("<wbr>", "")).toContain("/data/TV/Lost/Season 1");
  });

  it("escapes paths on the page", async () => {
    t = await startTestService();
    await postForm(t.base, { eventType: "Manual", filepath: "/tv/<script>alert(1)</script>/" });
    const html = await (await fetch(t.base)).text();
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;script&gt;");
  });

  it("shows the dashboard without the manual form and answers 403 for manual POSTs when SERVER_ALLOW_MANUAL_SCAN is false, and queues nothing", async () => {
    t = await startTestService({ SERVER_ALLOW_MANUAL_SCAN: false });
    const page = await fetch(t.base);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Manual scans are off (SERVER_ALLOW_MANUAL_SCAN)");
    expect(html).not.toContain('id="manual"');
    const res = await postForm(t.base, { eventType: "Manual", filepath: "/tv/Lost/" });
    expect(res.status).toBe(403);
    const queue = (await (await fetch(`${t.base}/api/queue`)).json()) as { counts: ScanCounts };
    expect(pendingOf(queue.counts)).toBe(0);
  });

  it("ignores paths matching SERVER_IGNORE_LIST and says so", async () => {
    t = await startTestService({ SERVER_IGNORE_LIST: ["/.grab/"] });
    const res = await postForm(t.base, { eventType: "Manual", filepath: "/tv/.grab/Lost/e.mkv" });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ status: "ignored" });
    expect(JSON.parse(res.text).message).toContain("/.grab/");
  });

  it("coalesces: a request inside a pending folder is covered by it", async () => {
    t = await startTestService({ SERVER_SCAN_DELAY: 3600 });
    const a = await postForm(t.base, { eventType: "Manual", filepath: "/tv/Lost/" });
    const b = await postForm(t.base, { eventType: "Manual", filepath: "/tv/Lost/Season 1/e01.mkv" });
    expect(JSON.parse(a.text).queued).toEqual(["/data/TV/Lost"]);
    expect(JSON.parse(b.text).covered).toEqual(["/data/TV/Lost/Season 1"]);
    const queue = (await (await fetch(`${t.base}/api/queue`)).json()) as { pending: Array<{ folder: string }> };
    expect(queue.pending.map((s) => s.folder)).toEqual(["/data/TV/Lost"]);
  });

  it("never logs the pass", async () => {
    t = await startTestService();
    await postForm(t.base, { eventType: "Manual", filepath: "/tv/Lost/" });
    await fetch(`${t.origin}/wrong-pass-123`);
    expect(t.logs()).toContain("scan request accepted");
    expect(t.logs()).not.toContain(TEST_PASS);
    expect(t.logs()).not.toContain(t.plex.token);
  });
});
