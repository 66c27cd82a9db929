import { createHash } from "node:crypto";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { createBasicAuth } from "../../src/auth/basic-auth.js";
import { createHashCheck, nodeHashFs, type HashCheck, type HashFs } from "../../src/server/compat/hash-check.js";
import { createLocalPathMapper } from "../../src/paths/local.js";
import { tempDir } from "../helpers/cli.js";
import { startTestService, storedScans, TEST_PASS, type TestService } from "../helpers/service.js";
import { COMPAT_PASS, startCompatServer } from "./compat-server.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const SECRET = "root:x:0:0:root:/root:/bin/bash\n";

/**
 * A library folder and, beside it, a file standing for /etc/shadow, with two
 * ways into it from inside the library: a symlinked file and a symlinked folder.
 */
function layout() {
  const media = tempDir("scanarr-autopulse-");
  const outside = tempDir("scanarr-outside-");
  const secret = path.join(outside, "shadow");
  writeFileSync(secret, SECRET);
  const season = path.join(media, "Show", "Season 1");
  mkdirSync(season, { recursive: true });
  const episode = path.join(season, "Show.S01E01.mkv");
  writeFileSync(episode, "the episode's bytes");
  const linkedFile = path.join(season, "Show.S01E02.mkv");
  symlinkSync(secret, linkedFile);
  symlinkSync(outside, path.join(media, "Linked"));
  return { media, outside, secret, episode, linkedFile, linkedFolder: path.join(media, "Linked", "shadow") };
}

describe("autopulse's ?path=&hash= trigger", () => {
  let t: TestService;
  let files: ReturnType<typeof layout>;
  const unseen = "/scanarr-test-not-mounted/TV";
  beforeAll(async () => {
    files = layout();
    t = await startTestService(
      { SERVER_PATH_MAPPINGS: {}, TRIGGERS: [{ NAME: "bazarr", TYPE: "manual" }] },
      {
        sections: [
          { key: "3", title: "TV", type: "show", locations: [files.media] },
          { key: "4", title: "Elsewhere", type: "show", locations: [unseen] },
        ],
      },
    );
  });
  afterAll(async () => t?.stop());

  const trigger = async (name: string, params: Record<string, string>) => {
    const res = await fetch(`${t.origin}/${TEST_PASS}/triggers/${name}?${new URLSearchParams(params)}`);
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) as Record<string, unknown> };
  };
  const pending = () => storedScans(t).filter((s) => s.state === "open" || s.state === "closed");

  it("queues the file's folder when the hash matches the file scanarr sees", async () => {
    const before = t.plex.refreshes.length;
    const answer = await trigger("bazarr", { path: files.episode, hash: sha256("the episode's bytes") });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: "queued", trigger: "bazarr", hash: "match" });
    expect(answer.body.queued).toEqual([path.dirname(files.episode)]);
    await t.plex.waitForRefreshes(before + 1);
  });

  it("answers a different file, a missing file, a folder and links out of the library alike, with no digest, queueing nothing", async () => {
    const wrongHash = sha256("an older version");
    const answers = [
      await trigger("bazarr", { path: files.episode, hash: wrongHash }),
      await trigger("bazarr", { path: path.join(files.media, "Show", "Season 2", "Show.S02E01.mkv"), hash: wrongHash }),
      await trigger("bazarr", { path: path.join(files.media, "Show"), hash: wrongHash }),
      // The right digest of the file outside: hashing it would have answered "match".
      await trigger("bazarr", { path: files.linkedFile, hash: sha256(SECRET) }),
      await trigger("manual", { path: files.linkedFolder, hash: sha256(SECRET) }),
    ];
    expect(answers.map((a) => a.status)).toEqual([409, 409, 409, 409, 409]);
    const errors = new Set(answers.map((a) => a.body.error));
    expect(errors.size).toBe(1);
    expect([...errors][0]).toMatch(/^not queued: the file is missing, unreadable or not the one the hash names/);
    for (const digest of [sha256("the episode's bytes"), sha256(SECRET), wrongHash]) {
      for (const a of answers) expect(a.text).not.toContain(digest);
      expect(t.logs()).not.toContain(digest);
    }
    expect(pending()).toEqual([]);
  });

  it("answers a path in no library as any trigger does, without reading it", async () => {
    const withHash = await trigger("bazarr", { path: files.secret, hash: sha256(SECRET) });
    const without = await trigger("bazarr", { path: files.secret });
    expect(withHash.status).toBe(200);
    expect(withHash.body).toMatchObject({ status: "unmatched", queued: [] });
    expect(withHash.body).toEqual(without.body);
    expect(withHash.text).not.toContain(sha256(SECRET));
    expect(t.logs()).not.toContain(sha256(SECRET));
  });

  it("refuses a '..' segment before anything else", async () => {
    const answer = await trigger("bazarr", { path: `${files.media}/../${path.basename(files.outside)}/shadow`, hash: sha256(SECRET) });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain("'..'");
  });

  it("queues without a check, saying so, when the library's folder is not visible to scanarr at all", async () => {
    const answer = await trigger("bazarr", { path: `${unseen}/Show/Season 1/e.mkv`, hash: sha256("x") });
    expect(answer.status).toBe(200);
    expect(answer.body.hash).toBe("unchecked: the file's library folder is not visible to scanarr; not checked");
    expect(answer.body.queued).toEqual([`${unseen}/Show/Season 1`]);
  });

  it("answers 400 to a malformed hash or a hash with several paths", async () => {
    expect((await trigger("bazarr", { path: files.episode, hash: "abc" })).status).toBe(400);
    const two = await fetch(
      `${t.origin}/${TEST_PASS}/triggers/bazarr?path=${encodeURIComponent(files.episode)}&path=%2Fx.mkv&hash=${sha256("x")}`,
    );
    expect(two.status).toBe(400);
  });

  it("queues ?path= and autoscan's ?dir= on a manual-typed name without a hash", async () => {
    const answer = await trigger("bazarr", { dir: path.join(files.media, "Show") });
    expect(answer.status).toBe(200);
    expect(answer.body.queued).toEqual([path.join(files.media, "Show")]);
  });
});

/** The real filesystem, recording every file it is asked to digest. */
function spyingFs(inner: HashFs): HashFs & { digested: string[] } {
  const digested: string[] = [];
  return {
    digested,
    realpath: (p) => inner.realpath(p),
    digest(file, maxBytes, signal) {
      digested.push(file);
      return inner.digest(file, maxBytes, signal);
    },
  };
}

describe("what the hash check reads", () => {
  it("digests no file whose real path leads out of the library, and digests the one inside", async () => {
    const files = layout();
    const fs = spyingFs(nodeHashFs);
    const check = createHashCheck({ toLocal: createLocalPathMapper({}), fs });
    expect(await check(files.linkedFile, [files.media], sha256(SECRET))).toMatchObject({ status: "refused" });
    expect(await check(files.linkedFolder, [files.media], sha256(SECRET))).toMatchObject({ status: "refused" });
    expect(fs.digested).toEqual([]);
    expect(await check(files.episode, [files.media], sha256("the episode's bytes"))).toEqual({ status: "match" });
    expect(fs.digested).toEqual([await realpath(files.episode)]);
  });

  it("looks where SERVER_FILE_EXIST_PATH_MAPPINGS says, and keeps to the library's folder there", async () => {
    const files = layout();
    const fs = spyingFs(nodeHashFs);
    const check = createHashCheck({ toLocal: createLocalPathMapper({ [`${files.media}/`]: ["/data/TV/"] }), fs });
    expect(await check("/data/TV/Show/Season 1/Show.S01E01.mkv", ["/data/TV"], sha256("the episode's bytes"))).toEqual({ status: "match" });
    expect(await check("/data/TV/Show/Season 1/Show.S01E02.mkv", ["/data/TV"], sha256(SECRET))).toMatchObject({ status: "refused" });
    expect(fs.digested).toEqual([await realpath(files.episode)]);
  });

  it("refuses a FIFO and a file over the size bound without waiting on them or reading them", async () => {
    const files = layout();
    const big = path.join(files.media, "Show", "big.mkv");
    writeFileSync(big, "0123456789");
    // Opened the plain way, a FIFO with no writer would hold the request until the time box.
    const fifo = path.join(files.media, "Show", "pipe.mkv");
    execFileSync("mkfifo", [fifo]);
    const check = createHashCheck({ toLocal: createLocalPathMapper({}), maxBytes: 10, timeoutMs: 5_000 });
    const refusedUnread = { status: "refused", detail: "not a regular file of at most 10 bytes" };
    expect(await check(fifo, [files.media], sha256(""))).toEqual(refusedUnread);
    expect(await check(big, [files.media], sha256("0123456789"))).toEqual({ status: "match" });
    writeFileSync(big, "0123456789A");
    expect(await check(big, [files.media], sha256("0123456789A"))).toEqual(refusedUnread);
  });

  it("gives up after its time box on a mount that never answers, and never runs more than its slots", async () => {
    let release: () => void = () => undefined;
    const hung = new Promise<never>((_, reject) => {
      release = () => reject(new Error("released"));
    });
    const check = createHashCheck({
      toLocal: createLocalPathMapper({}),
      timeoutMs: 200,
      maxConcurrent: 1,
      fs: { realpath: () => hung, digest: async () => undefined },
    });
    const stalled = check("/mnt/stalled/file.mkv", ["/mnt/stalled"], sha256("x"));
    expect(await check("/mnt/stalled/file.mkv", ["/mnt/stalled"], sha256("x"))).toEqual({
      status: "unchecked",
      reason: "other files are being hashed; not checked",
    });
    expect(await stalled).toEqual({ status: "unchecked", reason: "the file's library folder did not answer within 0.2 s; not checked" });
    // The slot stays taken while the stalled call has not returned, and frees when it does.
    expect(await check("/mnt/stalled/file.mkv", ["/mnt/stalled"], sha256("x"))).toMatchObject({ status: "unchecked" });
    release();
    await hung.catch(() => undefined);
    await new Promise((r) => setImmediate(r));
    expect(await check("/mnt/stalled/file.mkv", ["/mnt/stalled"], sha256("x"))).toEqual({
      status: "unchecked",
      reason: "the file's library folder is not visible to scanarr; not checked",
    });
  });

  it("checks nothing while the libraries are unknown or the file has no local path", async () => {
    const check = createHashCheck({
      toLocal: createLocalPathMapper({}),
      fs: { realpath: () => Promise.reject(new Error("read")), digest: () => Promise.reject(new Error("read")) },
    });
    expect(await check("/data/TV/a.mkv", undefined, sha256("x"))).toEqual({
      status: "unchecked",
      reason: "the media server's libraries are not known yet; not checked",
    });
    expect(await check("D:\\TV\\a.mkv", ["D:\\TV"], sha256("x"))).toMatchObject({ status: "unchecked" });
  });
});

describe("the hash check's place in the request, over real HTTP", () => {
  it("is never called for a path in no library, and its 'refused' reaches the caller without its detail", async () => {
    const calls: string[] = [];
    const hashCheck: HashCheck = async (serverPath) => {
      calls.push(serverPath);
      return { status: "refused", detail: "its SHA-256 differs" };
    };
    const clock = new ManualClock(Date.now());
    const server = await startCompatServer({
      clock,
      libraries: [{ id: "1", title: "TV", type: "show", locations: ["/data/TV"] }],
      compat: {
        triggers: new Map(),
        basicAuth: createBasicAuth({ login: { username: "", passwordHash: "" }, clock }),
        hashCheck,
      },
    });
    const ask = (file: string) =>
      fetch(`${server.origin}/${COMPAT_PASS}/triggers/manual?${new URLSearchParams({ path: file, hash: sha256("x") })}`);
    try {
      for (const file of ["/etc/shadow", "/proc/self/environ", "/data/TV2/a.mkv"]) {
        const answer = await ask(file);
        expect(answer.status).toBe(200);
        expect(await answer.json()).toMatchObject({ status: "unmatched", queued: [] });
      }
      expect(calls).toEqual([]);
      const refused = await ask("/data/TV/Show/a.mkv");
      expect(refused.status).toBe(409);
      expect(await refused.text()).not.toContain("differs");
      expect(calls).toEqual(["/data/TV/Show/a.mkv"]);
      expect(server.pending()).toBe(0);
    } finally {
      await server.close();
    }
  });
});
