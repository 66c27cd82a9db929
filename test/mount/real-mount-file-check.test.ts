import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/lib/clock.js";
import { createFileChecker } from "../../src/mount/file-check.js";
import { createPathProbe, type PathProbe } from "../../src/mount/path-probe.js";
import { createRcClient } from "../../src/rclone/rc-client.js";
import { createVfsRefresher } from "../../src/rclone/vfs-refresh.js";
import { recordingLogger } from "../helpers/log-lines.js";
import { canMount, cleanupRclone, type RcAuth, type RcloneMount, startRcloneMount } from "../helpers/rclone-mount.js";
import { startRcRecorder } from "../helpers/rc-recorder.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
  await cleanupRclone();
});

function write(root: string, file: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), "x");
}

/**
 * A mount of SRC at MNT seen by "Plex" as /data: the media server names
 * /data/TV/..., scanarr looks under MNT, rclone knows the folder as TV/....
 */
async function setup(options: { auth?: RcAuth; clientAuth?: RcAuth } = {}) {
  const mount: RcloneMount = await startRcloneMount(options.auth ? { auth: options.auth } : {});
  write(mount.src, "TV/Show/Season 1/e01.mkv");
  const probe: PathProbe = createPathProbe({ timeoutMs: 5_000 });
  closers.push(() => probe.close());
  // Lists the folders once, as Plex or a first scan would: from now on the mount's cache hides new files.
  expect((await probe.check(path.join(mount.mnt, "TV/Show/Season 1/e01.mkv"))).state).toBe("file");
  const recorder = await startRcRecorder(mount.rcUrl);
  closers.push(recorder.close);
  const { logger, lines } = recordingLogger();
  const client = createRcClient({ url: recorder.url, ...options.clientAuth, logger });
  const checker = createFileChecker({
    probe,
    existMappings: { [`${mount.mnt}/`]: ["/data/"] },
    refresh: {
      refresher: createVfsRefresher({ client, clock: new ManualClock(), logger }),
      remoteMappings: { "TV/": [`${mount.mnt}/TV/`] },
    },
    logger,
  });
  const refreshCalls = () => recorder.calls.filter((c) => c.command === "vfs/refresh");
  return { mount, probe, checker, refreshCalls, lines };
}

describe.skipIf(!canMount)("file-check round on a real rclone mount", () => {
  it("makes files written behind the mount's back visible with one refresh call per folder", async () => {
    const { mount, probe, checker, refreshCalls } = await setup();
    for (const n of [2, 3, 4]) write(mount.src, `TV/Show/Season 1/e0${n}.mkv`);
    write(mount.src, "TV/New Show/Season 1/e01.mkv");
    write(mount.src, "TV/New Show/Season 1/e02.mkv");
    const files = [2, 3, 4]
      .map((n) => `/data/TV/Show/Season 1/e0${n}.mkv`)
      .concat(["/data/TV/New Show/Season 1/e01.mkv", "/data/TV/New Show/Season 1/e02.mkv"]);
    // Invisible under MNT: the directory cache (1 h) still holds the old listing.
    expect((await probe.check(path.join(mount.mnt, "TV/Show/Season 1/e02.mkv"))).state).toBe("missing");

    const round = await checker.runRound(files);
    expect(round.files.map((f) => [f.file, f.visible, f.refreshed])).toEqual(files.map((f) => [f, true, true]));
    expect(round.files[0]?.localPath).toBe(path.join(mount.mnt, "TV/Show/Season 1/e02.mkv"));
    expect(round.refresh).toEqual({ folders: 2, calls: 3 });
    // Both seasons in one call; the new show is unknown to rclone, so the walk goes up one level per call
    // until its nearest known parent, TV, whose refresh lists it. Each folder is asked for once.
    expect(refreshCalls().map((c) => c.body)).toEqual([
      { dir: "TV/Show/Season 1", dir2: "TV/New Show/Season 1" },
      { dir: "TV/New Show" },
      { dir: "TV" },
    ]);
    expect(refreshCalls().map((c) => c.status)).toEqual([200, 200, 200]);

    const again = await checker.runRound(files);
    expect(again.files.every((f) => f.visible && !f.refreshed)).toBe(true);
    expect(again.refresh).toBeUndefined();
    expect(refreshCalls()).toHaveLength(3);
  });

  it("leaves a file that never arrives invisible after the refresh, and says nothing was wrong with rclone", async () => {
    const { checker, refreshCalls } = await setup();
    const round = await checker.runRound(["/data/TV/Show/Season 1/e09.mkv", "/data/TV/Show/Season 1/e01.mkv"]);
    expect(round.files.map((f) => [f.visible, f.state, f.refreshed])).toEqual([
      [false, "missing", true],
      [true, "file", false],
    ]);
    expect(round.refresh).toEqual({ folders: 1, calls: 1 });
    expect(refreshCalls().map((c) => c.body)).toEqual([{ dir: "TV/Show/Season 1" }]);
  });

  it("refreshes through a remote control that wants credentials, and goes on without it when they are wrong", async () => {
    const auth = { user: "scan", pass: "rc-secret-1" };
    const good = await setup({ auth, clientAuth: auth });
    write(good.mount.src, "TV/Show/Season 1/e05.mkv");
    expect((await good.checker.runRound(["/data/TV/Show/Season 1/e05.mkv"])).files[0]?.visible).toBe(true);

    const bad = await setup({ auth, clientAuth: { user: "scan", pass: "wrong-secret" } });
    write(bad.mount.src, "TV/Show/Season 1/e05.mkv");
    const round = await bad.checker.runRound(["/data/TV/Show/Season 1/e05.mkv"]);
    expect(round.files[0]).toMatchObject({ visible: false, state: "missing", refreshed: false });
    expect(round.refresh?.unavailable).toMatch(/refused the credentials/);
    expect(bad.refreshCalls().map((c) => c.status)).toEqual([]);
    expect(bad.lines.every((l) => !l.raw.includes("wrong-secret") && !l.raw.includes("rc-secret-1"))).toBe(true);
  });
});
