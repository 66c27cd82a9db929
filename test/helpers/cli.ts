import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { main } from "../../src/cli/main.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured streams and no colour; `cwd` is where it believes it was started. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}, stdinText = "", cwd = process.cwd()): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  stdin.end(stdinText);
  let out = "";
  let err = "";
  stdout.on("data", (d: Buffer) => (out += d.toString()));
  stderr.on("data", (d: Buffer) => (err += d.toString()));
  const code = await main(args, {
    stdout,
    stderr,
    stdin,
    env: { NO_COLOR: "1", ...env },
    cwd,
    signal: new AbortController().signal,
  });
  return { code, stdout: out, stderr: err };
}

export function tempDir(prefix = "scanarr-"): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** `scanarr <args>` in a child process with no standard input, as a script or a container's start runs it. */
export async function runCliChild(args: string[]): Promise<{ exitCode?: number; stdout: string; stderr: string }> {
  const child = await execa(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
    cwd: repoRoot,
    reject: false,
    stdin: "ignore",
    env: { NO_COLOR: "1" },
    timeout: 20_000,
  });
  return { exitCode: child.exitCode, stdout: child.stdout, stderr: child.stderr };
}
