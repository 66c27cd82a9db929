import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runnableScanarr } from "../../src/cli/how-to-run.js";
import { resolveInstallPaths } from "../../src/lib/install-paths.js";
import { tempDir } from "../helpers/cli.js";
import { repoRoot } from "../rclone/pty.js";

describe("the command the next steps name", () => {
  it("is plain scanarr when it is on PATH", () => {
    const bin = tempDir("scanarr-path-");
    writeFileSync(path.join(bin, "scanarr"), "#!/bin/sh\n");
    chmodSync(path.join(bin, "scanarr"), 0o755);
    const dir = tempDir();
    expect(runnableScanarr(resolveInstallPaths(dir), dir, { PATH: bin })).toBe("scanarr");
  });

  it("is this checkout's bin/scanarr.js, relative to where the user is, when scanarr is not on PATH", () => {
    const empty = tempDir("scanarr-nopath-");
    expect(runnableScanarr(resolveInstallPaths(repoRoot), repoRoot, { PATH: empty })).toBe("./bin/scanarr.js");
    const install = tempDir("scanarr-install-");
    mkdirSync(path.join(install, "config"));
    const command = runnableScanarr(resolveInstallPaths(install), install, { PATH: empty });
    expect(command).toBe(path.relative(install, path.join(repoRoot, "bin", "scanarr.js")));
    expect(runnableScanarr(resolveInstallPaths(install), repoRoot, { PATH: empty })).toBe(`./bin/scanarr.js --install-dir ${install}`);
  });
});
