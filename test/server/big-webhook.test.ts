import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, startTestService, type TestService } from "../helpers/service.js";
import { pendingOf, type ScanCounts } from "../../src/queue/scan-counts.js";

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ SERVER_SCAN_DELAY: 3600 });
});
afterAll(async () => t?.stop());

// How fast this is handled is measured by bench/big-webhook.ts; here only what it queues.
describe("a Sonarr import naming 20,000 files", () => {
  it("queues each of their folders exactly once and answers 202", async () => {
    const seasons = 2_000;
    const episodeFiles = Array.from({ length: 20_000 }, (_, i) => ({ path: `/tv/Big/Season ${i % seasons}/e${i}.mkv` }));
    const res = await postJson(t.base, { eventType: "Download", series: { path: "/tv/Big" }, episodeFiles });
    expect(res.status).toBe(202);
    const expected = Array.from({ length: seasons }, (_, s) => `/data/TV/Big/Season ${s}`).sort();
    expect([...(res.body.queued as string[])].sort()).toEqual(expected);
    expect(res.body.covered).toEqual([]);
    const queue = (await (await fetch(`${t.base}/api/queue?limit=1`)).json()) as { counts: ScanCounts };
    expect(pendingOf(queue.counts)).toBe(seasons);
  });
});
