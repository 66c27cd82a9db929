import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../src/config/types.js";
import { canMount, cleanupRclone, startRcloneMount, type RcloneMount } from "../helpers/rclone-mount.js";
import { postJson, startTestService, type TestService } from "../helpers/service.js";

const running: TestService[] = [];
afterEach(async () => {
  while (running.length > 0) await running.pop()?.stop();
  await cleanupRclone();
});

interface Health {
  status: string;
  anchors?: { ok: boolean; missing: string[]; checkedAt: string | null };
}

const health = async (t: TestService): Promise<Health> => (await (await fetch(`${t.origin}/health`)).json()) as Health;
const manual = (t: TestService, filepath: string) => postJson(t.base, { eventType: "Manual", filepath });

/**
 * A real `rclone mount` of SRC at MNT (directory cache 1 h, no polling), with
 * an anchor file on it; Plex sees the mount's TV folder as /data/TV. The
 * service looks for files through MNT and asks rclone to refresh when one is
 * not visible yet.
 */
async function serveOnMount(options: {
  refresh: boolean;
  exhaustionScansFolder?: boolean;
}): Promise<{ t: TestService; mount: RcloneMount }> {
  const mount = await startRcloneMount();
  writeFileSync(path.join(mount.src, "mounted.bin"), "");
  mkdirSync(path.join(mount.src, "TV", "Show", "Season 1"), { recursive: true });
  const overrides: Partial<Config> = {
    ANCHORS: [path.join(mount.mnt, "mounted.bin")],
    SERVER_MAX_FILE_CHECKS: 3,
    SERVER_FILE_CHECK_DELAY: 1,
    SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION: options.exhaustionScansFolder ?? false,
    SERVER_FILE_EXIST_PATH_MAPPINGS: { [`${mount.mnt}/TV/`]: ["/data/TV/"] },
    RCLONE: {
      CONFIG: "",
      CRYPT_MAPPINGS: {},
      RC_CACHE_REFRESH: {
        ENABLED: options.refresh,
        RC_URL: mount.rcUrl,
        FILE_EXISTS_TO_REMOTE_MAPPINGS: { "/": [`${mount.mnt}/`] },
        RC_USER: "",
        RC_PASS: "",
        FS: "",
      },
    },
  };
  const t = await startTestService(overrides, { anchorPollMs: 200 });
  running.push(t);
  // The season folder is listed once, so a file written into SRC from now on stays hidden under MNT.
  readdirSync(path.join(mount.mnt, "TV", "Show", "Season 1"));
  return { t, mount };
}

describe.skipIf(!canMount)("serve on a real rclone mount", () => {
  it("refreshes the mount for an import it cannot see yet, then scans the folder once", async () => {
    const { t, mount } = await serveOnMount({ refresh: true });
    writeFileSync(path.join(mount.src, "TV", "Show", "Season 1", "Show - S01E01.mkv"), "x");
    expect(readdirSync(path.join(mount.mnt, "TV", "Show", "Season 1"))).toEqual([]);
    expect((await manual(t, "/tv/Show/Season 1/Show - S01E01.mkv")).status).toBe(202);
    await t.plex.waitForRefreshes(1, 15_000);
    expect(t.plex.refreshes.map((r) => r.path)).toEqual(["/data/TV/Show/Season 1"]);
    expect(readdirSync(path.join(mount.mnt, "TV", "Show", "Season 1"))).toEqual(["Show - S01E01.mkv"]);
  });

  it("without the refresh, fails the scan visibly when the file never appears, and scans nothing", async () => {
    const { t, mount } = await serveOnMount({ refresh: false });
    writeFileSync(path.join(mount.src, "TV", "Show", "Season 1", "Show - S01E02.mkv"), "x");
    expect((await manual(t, "/tv/Show/Season 1/Show - S01E02.mkv")).status).toBe(202);
    const failed = async () =>
      ((await (await fetch(`${t.base}/api/queue`)).json()) as { failed: Array<{ deliveries: Array<{ lastError: string }> }> }).failed;
    await expect.poll(failed, { timeout: 15_000 }).toHaveLength(1);
    expect((await failed())[0]?.deliveries[0]?.lastError).toMatch(/^not scanned: a file never appeared after 3 checks: /);
    expect(t.plex.refreshes).toEqual([]);
  });

  it("keeps scans while the mount is down, then sends each folder once when it is back", async () => {
    const { t, mount } = await serveOnMount({ refresh: false });
    await expect.poll(async () => (await health(t)).anchors?.ok, { timeout: 10_000 }).toBe(true);
    await mount.stop();
    await expect.poll(async () => (await health(t)).anchors?.missing, { timeout: 10_000 }).toEqual([path.join(mount.mnt, "mounted.bin")]);
    const sentAt = Date.now();
    for (const folder of ["/tv/Show/Season 1", "/tv/Other/Season 2"]) expect((await manual(t, folder)).status).toBe(202);
    // Two more anchor checks after the requests, both still missing: the scans were due and held back.
    await expect.poll(async () => Date.parse((await health(t)).anchors?.checkedAt ?? "") > sentAt + 500, { timeout: 10_000 }).toBe(true);
    expect((await health(t)).status).toBe("degraded");
    expect(t.plex.refreshes).toEqual([]);
    await mount.remount();
    await t.plex.waitForRefreshes(2, 15_000);
    expect(t.plex.refreshes.map((r) => r.path).sort()).toEqual(["/data/TV/Other/Season 2", "/data/TV/Show/Season 1"]);
  });

  it("answers /health and webhooks at once while the mount hangs, and delivers after it resumes", async () => {
    const { t, mount } = await serveOnMount({ refresh: false });
    await expect.poll(async () => (await health(t)).anchors?.ok, { timeout: 10_000 }).toBe(true);
    mount.pause();
    try {
      const started = Date.now();
      const [status, posted] = await Promise.all([fetch(`${t.origin}/health`), manual(t, "/tv/Show/Season 1")]);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect([200, 503]).toContain(status.status);
      expect(posted.status).toBe(202);
    } finally {
      mount.resume();
    }
    await t.plex.waitForRefreshes(1, 20_000);
    expect(t.plex.refreshes.map((r) => r.path)).toEqual(["/data/TV/Show/Season 1"]);
  });
});
