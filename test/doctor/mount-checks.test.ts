import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { anchorsCheck } from "../../src/doctor/anchors-check.js";
import { rcloneCheck } from "../../src/doctor/rclone-check.js";
import { memoLibraries } from "../../src/doctor/run.js";
import type { CheckResult, DoctorContext } from "../../src/doctor/types.js";
import { resolveInstallPaths } from "../../src/lib/install-paths.js";
import { runCli, tempDir } from "../helpers/cli.js";
import {
  canMount,
  canRunRclone,
  cleanupRclone,
  makeTempDir,
  type RcloneMount,
  startRcloneMount,
  startRcloneRcd,
  startRcloneServe,
} from "../helpers/rclone-mount.js";
import { installFor } from "./helpers.js";
import { startFakePlex } from "../fakes/plex.js";

let mount: RcloneMount | undefined;
afterEach(async () => {
  mount?.resume();
  mount = undefined;
  await cleanupRclone();
});

function contextFor(config: Config, probeTimeoutMs?: number): DoctorContext {
  return { config, paths: resolveInstallPaths(tempDir()), unmet: [], targets: [], libraries: memoLibraries([]), probeTimeoutMs };
}

function withRc(settings: Partial<Config["RCLONE"]["RC_CACHE_REFRESH"]>): Config {
  const base = defaultConfig("x");
  return { ...base, RCLONE: { ...base.RCLONE, RC_CACHE_REFRESH: { ...base.RCLONE.RC_CACHE_REFRESH, ENABLED: true, ...settings } } };
}

describe("doctor: the anchors", () => {
  it("passes a present anchor, fails a missing one and an empty mount point, each with its mount, through scanarr doctor", async () => {
    const dir = tempDir();
    const present = path.join(dir, "media", "mounted.bin");
    mkdirSync(path.dirname(present));
    writeFileSync(present, "");
    const missing = path.join(dir, "gone", "mounted.bin");
    const empty = path.join(dir, "empty-mount");
    mkdirSync(empty);
    const plex = await startFakePlex();
    try {
      const install = await installFor(plex.url, plex.token, { ANCHORS: [present, missing, `${empty}/`] });
      const { code, stdout } = await runCli(["--install-dir", install.dir, "doctor", "--json"]);
      expect(code).toBe(1);
      const checks = (JSON.parse(stdout) as { checks: CheckResult[] }).checks.filter((c) => c.name.startsWith("anchor"));
      expect(checks).toEqual([
        { name: `anchor ${present}`, ok: true, detail: expect.stringMatching(/^present, on (the mount at \/|the root file system)/) },
        {
          name: `anchor ${missing}`,
          ok: false,
          detail: expect.stringMatching(/^does not exist.*: serve holds every scan until it is there$/),
        },
        {
          name: `anchor ${empty}/`,
          ok: false,
          detail: expect.stringMatching(/^is an empty folder \(a dropped mount looks like this\).*: serve holds every scan/),
        },
      ]);
    } finally {
      await plex.close();
    }
  });

  it("says when no anchor is configured", async () => {
    expect(await anchorsCheck.run(contextFor(defaultConfig("x")))).toEqual([
      { name: "anchors", ok: true, detail: expect.stringContaining("ANCHORS is empty") },
    ]);
  });

  it.skipIf(!canMount)("names the rclone mount an anchor is on, and says it is stalled within the bound when rclone hangs", async () => {
    mount = await startRcloneMount();
    writeFileSync(path.join(mount.src, "mounted.bin"), "");
    const anchor = path.join(mount.mnt, "mounted.bin");
    const config = { ...defaultConfig("x"), ANCHORS: [anchor] };
    expect(await anchorsCheck.run(contextFor(config, 1_000))).toEqual([
      { name: `anchor ${anchor}`, ok: true, detail: `present, on the mount at ${mount.mnt}` },
    ]);
    const stalled = path.join(mount.mnt, "other.bin");
    mount.pause();
    const started = performance.now();
    const [result] = await anchorsCheck.run(contextFor({ ...config, ANCHORS: [stalled] }, 1_000));
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(result).toEqual({
      name: `anchor ${stalled}`,
      ok: false,
      detail: `did not answer in time: the mount looks stalled (no answer within 1 s); on the mount at ${mount.mnt}: serve holds every scan until it is there`,
    });
  });
});

describe.skipIf(!canRunRclone)("doctor: rclone's remote control", () => {
  const auth = { user: "scan", pass: "rc-secret-pass" };

  it("passes a real rclone serve --rc that takes the credentials, naming its one VFS", async () => {
    const media = makeTempDir("scanarr-rc-");
    const rclone = await startRcloneServe(media, { auth });
    const [result] = await rcloneCheck.run(contextFor(withRc({ RC_URL: rclone.rcUrl, RC_USER: auth.user, RC_PASS: auth.pass })));
    expect(result).toEqual({
      name: "rclone",
      ok: true,
      detail: `the remote control at ${rclone.rcUrl} answers and takes the credentials; VFS ${JSON.stringify(media)} is refreshed before file checks`,
    });
  });

  it("fails a wrong RC password, naming the keys and not the password", async () => {
    const rclone = await startRcloneServe(makeTempDir("scanarr-rc-"), { auth });
    const [result] = await rcloneCheck.run(contextFor(withRc({ RC_URL: rclone.rcUrl, RC_USER: auth.user, RC_PASS: "wrong-pass" })));
    expect(result?.ok).toBe(false);
    expect(result?.detail).toMatch(
      /refused the credentials \(HTTP 401\): check RCLONE\.RC_CACHE_REFRESH\.RC_USER and RCLONE\.RC_CACHE_REFRESH\.RC_PASS/,
    );
    expect(result?.detail).not.toContain("wrong-pass");
  });

  it("fails an rcd with no mount, an FS that is not active, and a port where nothing listens", async () => {
    const rcd = await startRcloneRcd({ auth });
    const [bare] = await rcloneCheck.run(contextFor(withRc({ RC_URL: rcd.rcUrl, RC_USER: auth.user, RC_PASS: auth.pass })));
    expect(bare).toMatchObject({ ok: false, detail: expect.stringContaining("but no VFS is active") });
    const serve = await startRcloneServe(makeTempDir("scanarr-rc-"));
    const [wrongFs] = await rcloneCheck.run(contextFor(withRc({ RC_URL: serve.rcUrl, FS: "gdrive:" })));
    expect(wrongFs).toMatchObject({ ok: false, detail: expect.stringMatching(/FS "gdrive:" is not an active VFS \(active: "\//) });
    await serve.stop();
    const [down] = await rcloneCheck.run(contextFor(withRc({ RC_URL: serve.rcUrl })));
    expect(down).toMatchObject({ ok: false, detail: expect.stringMatching(/is unreachable: .*is rclone running with --rc/) });
  });
});
