import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { defaultConfig } from "../../src/config/defaults.js";
import { execa } from "execa";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, "../..");

/** One step of a terminal dialogue: wait for `expect`, then type `send` + Enter (null = Ctrl-C). */
export type PtyStep = [expect: string, send: string | null];

export const hasPython = spawnSync("python3", ["-c", "import pty"]).status === 0;
if (!hasPython) console.warn("python3 with the pty module is missing: the terminal tests are skipped");

/** Runs `command` in a pseudo-terminal, answering each prompt as it appears. */
export async function runInPty(
  steps: PtyStep[],
  command: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ output: string; status: number }> {
  // Asynchronous, so loopback fakes in this process keep answering meanwhile.
  const result = await execa("python3", [path.join(here, "rclone-pty.py"), JSON.stringify(steps), "--", ...command], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: "1", ...env },
    timeout: 60_000,
    reject: false,
  });
  return { output: `${result.stdout}${result.stderr}`.replace(/\r\n/g, "\n"), status: result.exitCode ?? -1 };
}

/**
 * The real `scanarr remote create`, run from source without a build, in a
 * fresh install dir whose config points the shared-drive list at `apiUrl`.
 * `--name N` becomes the positional name.
 */
export function scanarrCommand(args: string[], apiUrl?: string): string[] {
  const installDir = mkdtempSync(path.join(tmpdir(), "scanarr-remote-"));
  const config = defaultConfig("a".repeat(32));
  if (apiUrl) config.CLOUD.API_URL = apiUrl;
  mkdirSync(path.join(installDir, "config"));
  writeFileSync(path.join(installDir, "config", "config.json"), JSON.stringify(config), { mode: 0o600 });
  const rest = [...args];
  const at = rest.indexOf("--name");
  const name = at >= 0 ? rest.splice(at, 2)[1] : undefined;
  return [
    "node",
    "--import",
    "tsx",
    path.join(repoRoot, "src/cli/main.ts"),
    "--install-dir",
    installDir,
    "remote",
    "create",
    ...(name ? [name] : []),
    ...rest,
  ];
}
