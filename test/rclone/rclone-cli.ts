import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Helpers around the real /usr/bin/rclone used as the oracle in these tests. */
// In CI (.ci/run installs Debian's rclone) a missing rclone fails the tests instead of skipping them.
export const hasRclone = spawnSync("rclone", ["version"]).status === 0 || Boolean(process.env.CI);
if (!hasRclone) console.warn("rclone is not installed: the rclone compatibility tests are skipped (apt-get install rclone)");

export function makeTempDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), "scanarr-rclone-"));
}

export function runRclone(args: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync("rclone", args, {
    encoding: "utf8",
    env: { ...process.env, RCLONE_CONFIG_PASS: undefined, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** `rclone --config F config dump` parsed: what rclone itself reads from F. */
export function dumpConfig(file: string, env: NodeJS.ProcessEnv = {}): Record<string, Record<string, string>> {
  return JSON.parse(runRclone(["--config", file, "config", "dump"], env)) as Record<string, Record<string, string>>;
}
