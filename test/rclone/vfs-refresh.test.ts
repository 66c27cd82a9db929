import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { createRcClient } from "../../src/rclone/rc-client.js";
import { createVfsRefresher } from "../../src/rclone/vfs-refresh.js";
import { recordingLogger } from "../helpers/log-lines.js";
import { canMount, canRunRclone, cleanupRclone, makeTempDir, startRcloneRcd, startRcloneServe } from "../helpers/rclone-mount.js";
import { startRcRecorder } from "../helpers/rc-recorder.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
  await cleanupRclone();
});

async function recorded(rcUrl: string) {
  const recorder = await startRcRecorder(rcUrl);
  closers.push(recorder.close);
  return recorder;
}

describe.skipIf(!canRunRclone)("VFS refresher against a real rclone serve --rc", () => {
  it("refreshes each folder once and walks a missing one up to the nearest folder rclone knows, one call per level", async () => {
    const dir = makeTempDir();
    mkdirSync(path.join(dir, "Media", "TV", "Show"), { recursive: true });
    const rclone = await startRcloneServe(dir);
    const recorder = await recorded(rclone.rcUrl);
    const { logger } = recordingLogger();
    const refresher = createVfsRefresher({ client: createRcClient({ url: recorder.url, logger }), clock: new ManualClock(), logger });
    const outcome = await refresher.refreshNearest(["Media/TV/Show", "/Media/TV/New/Season 1/", "Nope/Deep", "Media/TV/Show"]);
    expect(outcome.unavailable).toBeUndefined();
    expect([...outcome.refreshed]).toEqual([
      ["Media/TV/Show", "Media/TV/Show"],
      ["Media/TV/New/Season 1", "Media/TV"],
      ["Nope/Deep", ""],
    ]);
    expect(outcome.failed.size).toBe(0);
    const refreshCalls = recorder.calls.filter((c) => c.command === "vfs/refresh").map((c) => c.body);
    expect(refreshCalls).toEqual([
      { dir: "Media/TV/Show", dir2: "Media/TV/New/Season 1", dir3: "Nope/Deep" },
      { dir: "Media/TV/New", dir2: "Nope" },
      { dir: "Media/TV" },
      {},
    ]);
    expect(outcome.calls).toBe(4);
  });

  it("lists the VFS once and reuses the answer until it is stale", async () => {
    const dir = makeTempDir();
    mkdirSync(path.join(dir, "Media"));
    const rclone = await startRcloneServe(dir);
    const recorder = await recorded(rclone.rcUrl);
    const clock = new ManualClock();
    const { logger } = recordingLogger();
    const refresher = createVfsRefresher({ client: createRcClient({ url: recorder.url, logger }), clock, logger, vfsListTtlMs: 60_000 });
    await refresher.refreshNearest(["Media"]);
    clock.advance(59_000);
    await refresher.refreshNearest(["Media"]);
    clock.advance(1_000);
    await refresher.refreshNearest(["Media"]);
    expect(recorder.calls.map((c) => c.command)).toEqual(["vfs/list", "vfs/refresh", "vfs/refresh", "vfs/list", "vfs/refresh"]);
  });

  it("reports the remote control as unavailable, without throwing, when the credentials are refused", async () => {
    const dir = makeTempDir();
    const rclone = await startRcloneServe(dir, { auth: { user: "u", pass: "right-pass" } });
    const { logger, at } = recordingLogger();
    const client = createRcClient({ url: rclone.rcUrl, user: "u", pass: "wrong-pass", logger });
    const refresher = createVfsRefresher({ client, clock: new ManualClock(), logger });
    const first = await refresher.refreshNearest(["Media"]);
    await refresher.refreshNearest(["Media"]);
    expect(first.unavailable).toMatch(/refused the credentials \(HTTP 401\)/);
    expect(first.refreshed.size).toBe(0);
    expect(at("error")).toHaveLength(1);
  });
});

describe.skipIf(!canMount)("VFS refresher with several VFS (rclone rcd + two FUSE mounts)", () => {
  async function twoMounts() {
    const rcd = await startRcloneRcd();
    const root = makeTempDir();
    for (const name of ["s1/TV/Show", "s2/Movies/Film", "m1", "m2"]) mkdirSync(path.join(root, name), { recursive: true });
    await rcd.mount(path.join(root, "s1"), path.join(root, "m1"));
    await rcd.mount(path.join(root, "s2"), path.join(root, "m2"));
    return { rcd, root, recorder: await recorded(rcd.rcUrl) };
  }

  it("without FS, finds each folder in the VFS that has it", async () => {
    const { recorder } = await twoMounts();
    const { logger } = recordingLogger();
    const refresher = createVfsRefresher({ client: createRcClient({ url: recorder.url, logger }), clock: new ManualClock(), logger });
    const outcome = await refresher.refreshNearest(["TV/Show", "Movies/Film"]);
    expect(Object.fromEntries(outcome.refreshed)).toEqual({ "TV/Show": "TV/Show", "Movies/Film": "Movies/Film" });
    expect(recorder.calls.filter((c) => c.command === "vfs/refresh").every((c) => typeof c.body.fs === "string")).toBe(true);
  });

  it("with FS, refreshes only the named VFS", async () => {
    const { root, recorder } = await twoMounts();
    const { logger } = recordingLogger();
    const fs = path.join(root, "s2");
    const refresher = createVfsRefresher({ client: createRcClient({ url: recorder.url, logger }), fs, clock: new ManualClock(), logger });
    const outcome = await refresher.refreshNearest(["Movies/Film"]);
    expect(Object.fromEntries(outcome.refreshed)).toEqual({ "Movies/Film": "Movies/Film" });
    expect(recorder.calls.map((c) => [c.command, c.body])).toEqual([["vfs/refresh", { dir: "Movies/Film", fs }]]);
  });
});
