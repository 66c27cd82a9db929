import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHashCheck } from "../../src/server/compat/hash-check.js";
import { tempDir } from "../helpers/cli.js";
import { startTestService, TEST_PASS, type TestService } from "../helpers/service.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("autopulse's ?path=&hash= trigger", () => {
  let t: TestService;
  let media: string;
  let episode: string;
  beforeAll(async () => {
    media = tempDir("scanarr-autopulse-");
    mkdirSync(path.join(media, "Show", "Season 1"), { recursive: true });
    episode = path.join(media, "Show", "Season 1", "Show.S01E01.mkv");
    writeFileSync(episode, "the episode's bytes");
    t = await startTestService(
      { SERVER_PATH_MAPPINGS: {}, TRIGGERS: [{ NAME: "bazarr", TYPE: "manual" }] },
      { sections: [{ key: "3", title: "TV", type: "show", locations: [media] }] },
    );
  });
  afterAll(async () => t?.stop());

  const trigger = (name: string, params: Record<string, string>) =>
    fetch(`${t.origin}/${TEST_PASS}/triggers/${name}?${new URLSearchParams(params)}`);

  it("queues the file's folder when the hash matches the file scanarr sees", async () => {
    const before = t.plex.refreshes.length;
    const res = await trigger("bazarr", { path: episode, hash: sha256("the episode's bytes") });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: "queued", trigger: "bazarr", hash: "match" });
    expect(body.queued).toEqual([path.dirname(episode)]);
    await t.plex.waitForRefreshes(before + 1);
  });

  it("answers 409 and queues nothing when the hash differs", async () => {
    const res = await trigger("bazarr", { path: episode, hash: sha256("an older version") });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: string };
    expect(body.error).toContain(`has SHA-256 ${sha256("the episode's bytes")}`);
    expect(body.error).toContain("not queued");
    const queue = (await (await fetch(`${t.base}/api/queue`)).json()) as { pending: unknown[] };
    expect(queue.pending).toEqual([]);
  });

  it("accepts a file scanarr cannot see, saying the hash was not checked", async () => {
    const res = await trigger("manual", { path: path.join(media, "Show", "Season 2", "Show.S02E01.mkv"), hash: sha256("x") });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { hash: string; queued: string[] };
    expect(body.hash).toMatch(/^unchecked: the file is not visible/);
    expect(body.queued).toEqual([path.join(media, "Show", "Season 2")]);
  });

  it("answers 400 to a malformed hash or a hash with several paths", async () => {
    expect((await trigger("bazarr", { path: episode, hash: "abc" })).status).toBe(400);
    const two = await fetch(
      `${t.origin}/${TEST_PASS}/triggers/bazarr?path=${encodeURIComponent(episode)}&path=%2Fx.mkv&hash=${sha256("x")}`,
    );
    expect(two.status).toBe(400);
  });

  it("queues ?path= and autoscan's ?dir= on a manual-typed name without a hash", async () => {
    const res = await trigger("bazarr", { dir: path.join(media, "Show") });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { queued: string[] }).queued).toEqual([path.join(media, "Show")]);
  });
});

describe("the hash check's bounds", () => {
  it("gives up after its time box on a mount that never answers, and never runs more than its slots", async () => {
    let release: () => void = () => undefined;
    const hung = new Promise<never>((_, reject) => {
      release = () => reject(new Error("released"));
    });
    const check = createHashCheck({
      localPaths: () => ["/mnt/stalled/file.mkv"],
      timeoutMs: 200,
      maxConcurrent: 1,
      fs: { stat: () => hung, open: () => Readable.from([]) },
    });
    const stalled = check("/x.mkv", "/x.mkv", sha256("x"));
    expect(await check("/x.mkv", "/x.mkv", sha256("x"))).toEqual({
      status: "unchecked",
      reason: "other files are being hashed; not checked",
    });
    expect(await stalled).toEqual({ status: "unchecked", reason: "reading the file took longer than 0.2 s; not checked" });
    // The slot stays taken while the stalled stat has not returned, and frees when it does.
    expect((await check("/x.mkv", "/x.mkv", sha256("x"))).status).toBe("unchecked");
    release();
    await hung.catch(() => undefined);
    await new Promise((r) => setImmediate(r));
    expect(await check("/x", "/x", sha256("x"))).toEqual({
      status: "unchecked",
      reason: "the file is not visible to scanarr; not checked",
    });
  });
});
