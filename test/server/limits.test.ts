import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, postJson, startTestService, type TestService } from "../helpers/service.js";
import { pendingOf, type ScanCounts } from "../../src/queue/views/scan-counts.js";

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ SERVER_SCAN_DELAY: 3600 });
});
afterAll(async () => t?.stop());

async function pendingCount(): Promise<number> {
  const res = await fetch(`${t.base}/api/queue`);
  return pendingOf(((await res.json()) as { counts: ScanCounts }).counts);
}

/** POSTs raw bytes, so the test controls the encoding the client would otherwise fix. */
async function postBytes(body: Buffer, contentType: string): Promise<{ status: number; text: string }> {
  const res = await fetch(t.base, { method: "POST", headers: { "content-type": contentType }, body });
  return { status: res.status, text: await res.text() };
}

/** Sends `total` bytes with Transfer-Encoding: chunked (no Content-Length) and reads the status. */
function postChunked(total: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${t.base}`, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    // The server answers before the upload ends; the rest of the upload may then fail.
    req.on("error", (error) => setTimeout(() => reject(error), 1_000));
    const chunk = Buffer.alloc(64 * 1024, "x");
    req.write('{"eventType":"Manual","filepath":"/tv/');
    for (let sent = 0; sent < total; sent += chunk.length) req.write(chunk);
    req.end('"}');
  });
}

describe("request limits, each answered with a status and the reason", () => {
  it("answers 413 to a chunked body over 1 MiB, and queues nothing", async () => {
    expect(await postChunked(2 * 1024 * 1024)).toBe(413);
    expect(await pendingCount()).toBe(0);
  });

  it("answers 400 to a path longer than 4,096 bytes, naming the limit", async () => {
    const res = await postJson(t.base, { eventType: "Manual", filepath: `/tv/${"a".repeat(5_000)}/e.mkv` });
    expect(res.status).toBe(400);
    expect(String(res.body.error)).toMatch(/longer than 4096 bytes/);
    // The answer quotes the path cut short, not all 5,000 bytes of it.
    expect(String(res.body.error).length).toBeLessThan(400);
    expect(await pendingCount()).toBe(0);
  });

  it("answers 413 to a request naming more than 25,000 paths", async () => {
    const episodeFiles = Array.from({ length: 25_001 }, (_, i) => ({ path: `/tv/Big/Season 1/e${i}.mkv` }));
    const res = await postJson(t.base, { eventType: "Download", series: { path: "/tv/Big" }, episodeFiles });
    expect(res.status).toBe(413);
    expect(String(res.body.error)).toContain("25001 paths; the limit is 25000 per request");
    expect(await pendingCount()).toBe(0);
  });

  it("answers 400 to a JSON body that is not valid UTF-8, instead of queueing U+FFFD", async () => {
    const body = Buffer.concat([Buffer.from('{"eventType":"Manual","filepath":"/tv/Show '), Buffer.from([0xff, 0xfe]), Buffer.from('/"}')]);
    const res = await postBytes(body, "application/json");
    expect(res.status).toBe(400);
    expect(res.text).toContain("not valid UTF-8");
    expect(await pendingCount()).toBe(0);
  });

  it("answers 400 to a form field whose percent-escapes are not UTF-8", async () => {
    const res = await postBytes(Buffer.from("eventType=Manual&filepath=%2Ftv%2FShow%FF%2F"), "application/x-www-form-urlencoded");
    expect(res.status).toBe(400);
    expect(res.text).toContain("not valid UTF-8");
    expect(await pendingCount()).toBe(0);
  });

  it("answers 400 to a lone surrogate escape in JSON", async () => {
    const res = await postBytes(Buffer.from('{"eventType":"Manual","filepath":"/tv/Show \\ud800/"}'), "application/json");
    expect(res.status).toBe(400);
    expect(res.text).toContain("lone surrogate");
    expect(await pendingCount()).toBe(0);
  });

  it("takes a JSON body that starts with a byte-order mark, as a text decoder reads it", async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"eventType":"Manual","filepath":"/tv/Bom Show/"}')]);
    expect((await postBytes(body, "application/json")).status).toBe(202);
  });

  it("still takes UTF-8 paths in JSON and in forms", async () => {
    expect((await postForm(t.base, { eventType: "Manual", filepath: "/tv/Björk – 日本語/" })).status).toBe(202);
    expect((await postJson(t.base, { eventType: "Manual", filepath: "/tv/Amélie 😀/" })).status).toBe(202);
  });
});

describe("answers that stay small however long the queue is", () => {
  it("lists at most 100 scans per state in /api/queue unless ?limit= says otherwise, with the full counts", async () => {
    const before = await pendingCount();
    const episodeFiles = Array.from({ length: 150 }, (_, i) => ({ path: `/tv/Many/Season ${i}/e.mkv` }));
    expect((await postJson(t.base, { eventType: "Download", series: { path: "/tv/Many" }, episodeFiles })).status).toBe(202);
    const all = before + 150;
    const page = (await (await fetch(`${t.base}/api/queue`)).json()) as { pending: unknown[]; counts: ScanCounts };
    expect(page.pending).toHaveLength(100);
    expect(pendingOf(page.counts)).toBe(all);
    const more = (await (await fetch(`${t.base}/api/queue?limit=120`)).json()) as { pending: unknown[] };
    expect(more.pending).toHaveLength(120);
    const tooMany = await fetch(`${t.base}/api/queue?limit=100000`);
    expect(tooMany.status).toBe(400);
    expect(await tooMany.text()).toContain("from 1 to 500");
  });
});
