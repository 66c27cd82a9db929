import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, postJson, startTestService, type TestService } from "../helpers/service.js";
import { pendingOf, type ScanCounts } from "../../src/queue/views/scan-counts.js";

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.stop());

async function pendingCount(): Promise<number> {
  const res = await fetch(`${t.base}/api/queue`);
  return pendingOf(((await res.json()) as { counts: ScanCounts }).counts);
}

describe("bad input is answered 4xx and queues nothing", () => {
  it("answers 400 with the reason when the body is not JSON", async () => {
    const res = await postJson(t.base, '{"eventType": "Download", ');
    expect(res.status).toBe(400);
    expect(String(res.body.error)).toMatch(/not valid JSON/);
    expect(await pendingCount()).toBe(0);
  });

  it("answers 400 when fields are missing or of the wrong type", async () => {
    expect((await postForm(t.base, { eventType: "Manual" })).status).toBe(400);
    expect((await postJson(t.base, { eventType: "Manual", filepath: 42 })).status).toBe(400);
    expect((await postJson(t.base, { eventType: "Download", series: { path: 7 }, episodeFile: {} })).status).toBe(400);
    expect((await postJson(t.base, [])).status).toBe(400);
    expect(await pendingCount()).toBe(0);
  });

  it("answers 400 for an empty body", async () => {
    const res = await fetch(t.base, { method: "POST" });
    expect(res.status).toBe(400);
  });

  it("answers 413 for a body over the limit", async () => {
    const res = await postJson(t.base, { eventType: "Manual", filepath: `/tv/${"x".repeat(2 * 1024 * 1024)}` });
    expect(res.status).toBe(413);
    expect(await pendingCount()).toBe(0);
  });

  it("answers 400 for '..' segments and NUL bytes", async () => {
    const dots = await postForm(t.base, { eventType: "Manual", filepath: "/tv/../etc/passwd" });
    expect(dots.status).toBe(400);
    expect(dots.text).toContain("'..' segment");
    const nul = await postJson(t.base, { eventType: "Manual", filepath: "/tv/a\u0000b/x.mkv" });
    expect(nul.status).toBe(400);
    expect(await pendingCount()).toBe(0);
  });

  it("answers 400 for a relative path that matches no drive prefix", async () => {
    const res = await postForm(t.base, { eventType: "Manual", filepath: "Other Drive/Media/x.mkv" });
    expect(res.status).toBe(400);
  });

  it("answers 2xx 'ignored' for an unknown event of a known app, 400 for an unknown shape", async () => {
    const unknown = await postJson(t.base, { eventType: "SomethingNew", series: { path: "/tv/Lost" } });
    expect(unknown.status).toBe(200);
    expect(unknown.body.status).toBe("ignored");
    expect((await postJson(t.base, { hello: "world" })).status).toBe(400);
    expect(await pendingCount()).toBe(0);
  });

  it("answers 401 with the same body for every wrong pass, and 404 with no pass", async () => {
    const bodies = await Promise.all(
      ["x", "0123456789abcdef0123456789abcdee", "a".repeat(300)].map(async (p) => {
        const res = await fetch(`${t.origin}/${p}`, { method: "POST", body: "eventType=Manual&filepath=/tv/x" });
        return `${res.status} ${await res.text()}`;
      }),
    );
    expect(new Set(bodies).size).toBe(1);
    expect(bodies[0]).toMatch(/^401 /);
    expect((await fetch(`${t.origin}/api/wrong?cmd=queue_count`)).status).toBe(401);
    expect((await fetch(`${t.origin}/`)).status).toBe(404);
    expect(await pendingCount()).toBe(0);
  });

  it("answers 422 naming the path and the libraries when no library contains it", async () => {
    const res = await postForm(t.base, { eventType: "Manual", filepath: "/srv/elsewhere/Movie (2000)/m.mkv" });
    expect(res.status).toBe(422);
    const body = JSON.parse(res.text) as { error: string };
    expect(body.error).toContain("/srv/elsewhere/Movie (2000)");
    expect(body.error).toContain("TV Shows (/data/TV)");
    expect(await pendingCount()).toBe(0);
  });

  it("accepts any JSON content type, and PUT", async () => {
    const res = await fetch(t.base, {
      method: "PUT",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ eventType: "Test", series: { id: 1 } }),
    });
    expect(res.status).toBe(200);
  });
});

describe("status routes", () => {
  it("GET /health answers without a pass and without secrets", async () => {
    // "ok" only once Plex has really answered (the first library fetch runs at start).
    await expect.poll(async () => (await fetch(`${t.origin}/health`)).status).toBe(200);
    const res = await fetch(`${t.origin}/health`);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ status: "ok", targets: { plex: { state: "ok", failures: 0 } } });
    expect(text).not.toContain(t.config.SERVER_PASS);
  });

  it("keeps plex_autoscan's /api/<pass>?cmd=queue_count", async () => {
    const res = await fetch(`${t.origin}/api/${t.config.SERVER_PASS}?cmd=queue_count`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ queue_count: 0 });
    expect((await fetch(`${t.origin}/api/${t.config.SERVER_PASS}?cmd=nope`)).status).toBe(400);
  });
});
