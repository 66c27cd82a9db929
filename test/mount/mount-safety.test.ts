import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { systemClock } from "../../src/lib/clock.js";
import { createMountSafety, fileCheckPolicyOf, type MountSafety } from "../../src/mount/mount-safety.js";
import type { AnchorCheck, FileChecker as GateFileChecker } from "../../src/delivery/gates.js";
import { recordingLogger } from "../helpers/log-lines.js";
import { canMount, cleanupRclone, makeTempDir, startRcloneMount } from "../helpers/rclone-mount.js";

const built: MountSafety[] = [];
afterEach(async () => {
  await Promise.all(built.splice(0).map((m) => m.close()));
  await cleanupRclone();
});

function build(config: Config): MountSafety {
  const safety = createMountSafety(config, { logger: recordingLogger().logger, clock: systemClock, checkTimeoutMs: 2_000 });
  built.push(safety);
  return safety;
}

describe("mount safety built from the config", () => {
  it("guards with ANCHORS and the control files, and leaves file checks and rclone out when they are off", async () => {
    const dir = makeTempDir();
    writeFileSync(path.join(dir, "mounted.bin"), "");
    const config: Config = {
      ...defaultConfig("a".repeat(32)),
      ANCHORS: [path.join(dir, "mounted.bin")],
      PLEX_EMPTY_TRASH_CONTROL_FILES: [path.join(dir, "control.bin")],
      SERVER_MAX_FILE_CHECKS: 0,
    };
    const safety = build(config);
    expect(safety.status()).toEqual({ anchors: undefined, rclone: "off" });
    expect(safety.anchors.anchors).toEqual([path.join(dir, "mounted.bin"), path.join(dir, "control.bin")]);
    expect((await safety.anchors.check()).missing.map((m) => m.path)).toEqual([path.join(dir, "control.bin")]);
    expect(safety.files).toBeUndefined();
    expect(safety.rc).toBeUndefined();
    expect(safety.status()).toEqual({ anchors: safety.anchors.current(), rclone: "off" });
    expect(safety.status().anchors?.ok).toBe(false);
  });

  it("fits the queue's gates: its checker and anchors are what createGates takes, and the policy follows the keys", () => {
    const config: Config = { ...defaultConfig("a".repeat(32)), SERVER_MAX_FILE_CHECKS: 4, SERVER_FILE_CHECK_DELAY: 30 };
    const safety = build(config);
    const checker: GateFileChecker | undefined = safety.files;
    const anchors: AnchorCheck = safety.anchors;
    expect(checker).toBeDefined();
    expect(anchors).toBe(safety.anchors);
    expect(fileCheckPolicyOf(config)).toEqual({ maxChecks: 4, delayMs: 30_000, scanFolderOnExhaustion: false });
    expect(fileCheckPolicyOf({ ...config, SERVER_MAX_FILE_CHECKS: 0 })).toBeUndefined();
  });

  it.skipIf(!canMount)("checks files through the mapping and refreshes through RC_URL with RC_USER/RC_PASS on a real mount", async () => {
    const auth = { user: "scan", pass: "rc-pass-123" };
    const mount = await startRcloneMount({ auth });
    writeFileSync(path.join(mount.src, "mounted.bin"), "");
    const config = defaultConfig("a".repeat(32));
    config.ANCHORS = [path.join(mount.mnt, "mounted.bin")];
    config.SERVER_MAX_FILE_CHECKS = 3;
    config.SERVER_FILE_EXIST_PATH_MAPPINGS = { [`${mount.mnt}/`]: ["/data/"] };
    config.RCLONE.RC_CACHE_REFRESH = {
      ENABLED: true,
      RC_URL: mount.rcUrl,
      FILE_EXISTS_TO_REMOTE_MAPPINGS: { "/": [`${mount.mnt}/`] },
      RC_USER: auth.user,
      RC_PASS: auth.pass,
      FS: "",
    };
    const safety = build(config);
    expect((await safety.anchors.check()).ok).toBe(true);
    // Written after the mount listed its root: hidden by the directory cache until refreshed.
    writeFileSync(path.join(mount.src, "e01.mkv"), "x");
    const round = await safety.files?.runRound(["/data/e01.mkv"]);
    expect(round?.files[0]).toMatchObject({ visible: true, refreshed: true, localPath: path.join(mount.mnt, "e01.mkv") });
    expect(round?.refresh).toEqual({ folders: 1, calls: 1 });
    expect(safety.status()).toMatchObject({ anchors: { ok: true, missing: [] }, rclone: "ok" });
  });
});
