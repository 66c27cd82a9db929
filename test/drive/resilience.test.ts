import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness.js";

describe("drive monitor: failures and crashes", () => {
  let h: Harness;
  let movies: string;

  beforeEach(async () => {
    h = await startHarness();
    h.fake.seed(() => {
      movies = h.fake.addFolderPath("Media/Movies");
    });
    await h.poll();
  });
  afterEach(async () => h.close());

  const token = (): unknown => h.db.prepare("SELECT page_token FROM drive_logs WHERE log_key = 'my-drive'").pluck().get();

  it.each([
    [403, "userRateLimitExceeded"],
    [403, "rateLimitExceeded"],
    [429, "rateLimitExceeded"],
    [503, "backendError"],
  ])("backs off with jitter on %i %s and then recovers", async (status, reason) => {
    h.fake.addFile("x.mkv", h.fake.addFolder("X (2020)", movies));
    h.fake.failNext(status, { reason, endpoint: "changes.list", times: 2 });
    const sleeps = await h.poll();
    expect(sleeps).toEqual([1500, 2500]); // 1 s and 2 s, plus 0.5 s of jitter (random() = 0.5)
    expect(h.fake.calls["changes.list"]).toBe(3);
    expect(h.sink.folders).toEqual(["/data/Movies/X (2020)"]);
  });

  it("gives up after six tries, keeps its token, and catches up at the next poll", async () => {
    const before = token();
    h.fake.addFile("y.mkv", h.fake.addFolder("Y (2020)", movies));
    h.fake.failNext(500, { endpoint: "changes.list", times: 6 });
    const sleeps = await h.poll();
    expect(sleeps).toEqual([1500, 2500, 4500, 8500, 16500]);
    expect(h.sink.requests).toEqual([]);
    expect(token()).toBe(before);
    expect(h.logs.messages(50)).toContain("Drive poll failed; it resumes from the last committed page at the next poll");
    await h.poll();
    expect(h.sink.folders).toEqual(["/data/Movies/Y (2020)"]);
  });

  it("does not retry a 403 that is not a rate limit", async () => {
    h.fake.failNext(403, { reason: "insufficientFilePermissions", endpoint: "changes.list" });
    h.fake.resetCalls();
    expect(await h.poll()).toEqual([]);
    expect(h.fake.calls["changes.list"]).toBe(1);
  });

  it("logs refused credentials and keeps running", async () => {
    h.fake.accessTokens.clear();
    await expect(h.poll()).resolves.toEqual([]);
    const failure = h.logs.lines.find((l) => l.msg === "Drive poll failed; it resumes from the last committed page at the next poll");
    expect(String(failure?.error)).toContain("scanarr authorize");
    expect(h.clock.pending).toBe(1); // the next poll is scheduled
  });

  it("loses nothing when the queue fails to commit: the token stays and the next poll queues the file", async () => {
    const before = token();
    h.fake.addFile("z.mkv", h.fake.addFolder("Z (2020)", movies));
    h.sink.failures = 1;
    await h.poll();
    expect(h.sink.requests).toEqual([]);
    expect(token()).toBe(before);
    await h.poll();
    expect(h.sink.folders).toEqual(["/data/Movies/Z (2020)"]);
  });

  it("resumes at the first uncommitted page after a crash in the middle of a multi-page poll", async () => {
    for (let i = 0; i < 2500; i++) h.fake.addFile(`m${i}.mkv`, h.fake.addFolder(`M${i} (2000)`, movies));
    const committed: string[] = [];
    const enqueue = h.sink.enqueue.bind(h.sink);
    // Killed at the first commit after page 1's 500 folders (a page may take several commits).
    h.sink.enqueue = async (requests) => {
      if (new Set(committed).size >= 500) throw new Error("process killed");
      committed.push(...requests.map((r) => r.folder));
      return enqueue(requests);
    };
    await h.poll();
    expect(new Set(committed).size).toBe(500); // page 1: 500 folders and their 500 files
    await h.restart(); // a new process on the same database file
    h.sink.enqueue = enqueue;
    h.fake.resetCalls();
    await h.poll();
    expect(h.fake.calls["changes.list"]).toBe(4); // pages 2 to 5 of 5,000 changes; page 1 is not read again
    expect(new Set(h.sink.folders).size).toBe(2500);
  });

  it("reads a page again after a crash between two of its commits, losing nothing", async () => {
    for (let i = 0; i < 600; i++) h.fake.addFile(`p${i}.mkv`, h.fake.addFolder(`P${i} (2001)`, movies));
    const enqueue = h.sink.enqueue.bind(h.sink);
    let calls = 0;
    h.sink.enqueue = async (requests) => {
      // A page of 500 changes is more folders than one commit takes: the second commit never happens.
      if (++calls === 2) throw new Error("process killed");
      return enqueue(requests);
    };
    await h.poll();
    const before = new Set(h.sink.folders).size;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(500);
    await h.restart();
    h.sink.enqueue = enqueue;
    h.fake.resetCalls();
    await h.poll();
    expect(h.fake.calls["changes.list"]).toBe(2); // page 1 again (its token was never stored), then page 2 (1,200 changes)
    expect(new Set(h.sink.folders).size).toBe(600);
  });

  it("stops promptly while a poll is backing off", async () => {
    h.fake.failNext(503, { endpoint: "changes.list", times: 100 });
    const polling = h.monitor.pollNow();
    while (h.fake.calls["changes.list"] === 0) await new Promise((resolve) => setImmediate(resolve));
    await h.monitor.stop();
    await expect(polling).resolves.toBeUndefined();
    expect(h.fake.calls["changes.list"]).toBeLessThanOrEqual(3);
  });

  it("polls again every POLL_INTERVAL seconds on its own", async () => {
    h.fake.addFile("t.mkv", h.fake.addFolder("T (2020)", movies));
    h.clock.advance(60_000);
    while (h.sink.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(h.sink.folders).toEqual(["/data/Movies/T (2020)"]);
  });
});
