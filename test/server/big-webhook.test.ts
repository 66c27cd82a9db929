import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, startTestService, type TestService } from "../helpers/service.js";
import { pendingOf, type ScanCounts } from "../../src/queue/views/scan-counts.js";

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ SERVER_SCAN_DELAY: 3600 });
});
afterAll(async () => t?.stop());

// Without series.path an Import Complete is not trusted to end its batch: it waits the quiet time (3600 s here), so what it queued stays pending.
const importOf = (files: number, seasons: number) => ({
  eventType: "Download",
  episodeFiles: Array.from({ length: files }, (_, i) => ({ path: `/tv/Big/Season ${i % seasons}/e${i}.mkv` })),
});

// How fast this is handled is measured by bench/big-webhook.ts; here only what it queues, and in what order it answers.
describe("a Sonarr import naming 20,000 files", () => {
  it("queues each of their folders exactly once and answers 202", async () => {
    const seasons = 2_000;
    const res = await postJson(t.base, importOf(20_000, seasons));
    expect(res.status).toBe(202);
    const expected = Array.from({ length: seasons }, (_, s) => `/data/TV/Big/Season ${s}`).sort();
    expect([...(res.body.queued as string[])].sort()).toEqual(expected);
    expect(res.body.covered).toEqual([]);
    const queue = (await (await fetch(`${t.base}/api/queue?limit=1`)).json()) as { counts: ScanCounts };
    expect(pendingOf(queue.counts)).toBe(seasons);
  });

  it("lets GET /health through while it is handled: the health answer comes before the import's 202", async () => {
    // A connection opened beforehand; its request is written the moment the server has read the whole import.
    const socket = connect(t.service.port, "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    const answered: string[] = [];
    const health = new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (chunk: Buffer) => {
        if (text === "") answered.push("health");
        text += chunk.toString();
      });
      socket.once("end", () => resolve(text));
    });
    t.service.server.once("request", (req) => {
      req.once("end", () => socket.write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"));
    });
    const big = postJson(t.base, importOf(20_000, 20_000)).then((res) => {
      answered.push("import");
      return res;
    });
    const [res, healthText] = await Promise.all([big, health]);
    expect(res.status).toBe(202);
    expect(res.body.queued as string[]).toHaveLength(20_000);
    expect(healthText).toMatch(/^HTTP\/1\.1 200 /);
    expect(answered).toEqual(["health", "import"]);
  });
});
