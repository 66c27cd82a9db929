import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { TEST_PASS } from "./service.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface ChildServe {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** Writes `<dir>/config/config.json` (0600) for a child serve on 127.0.0.1 (any port) against `plex`. */
export function writeServeConfig(dir: string, plex: { url: string; token: string }, overrides: Partial<Config> = {}): void {
  mkdirSync(path.join(dir, "config"), { recursive: true });
  const config = {
    ...defaultConfig(TEST_PASS),
    SERVER_IP: "127.0.0.1",
    SERVER_PORT: 0,
    PLEX_LOCAL_URL: plex.url,
    PLEX_TOKEN: plex.token,
    ...overrides,
  };
  writeFileSync(path.join(dir, "config", "config.json"), JSON.stringify(config), { mode: 0o600 });
}

export interface SpawnServeOptions {
  /** Node flags before tsx (e.g. `--import` of a recorder). */
  nodeFlags?: string[];
  env?: Record<string, string>;
  logLevel?: "debug" | "info";
}

/**
 * Node's argv for `scanarr serve` from the source tree at `root` (through
 * tsx, no build): JSON log lines at `logLevel`, the install at `installDir`.
 * The tests' child serve and the benches' start it the same way.
 */
export function serveFromSourceArgs(
  root: string,
  installDir: string,
  options: { nodeFlags?: readonly string[]; logLevel?: string } = {},
): string[] {
  return [
    ...(options.nodeFlags ?? []),
    "--import",
    "tsx",
    path.join(root, "src/cli/main.ts"),
    ...serveCommand(installDir, options.logLevel),
  ];
}

/** The same for the built `bin/scanarr.js` of `root` (its dist/ compiled), as a user's install runs it. */
export function serveBuiltArgs(
  root: string,
  installDir: string,
  options: { nodeFlags?: readonly string[]; logLevel?: string } = {},
): string[] {
  return [...(options.nodeFlags ?? []), path.join(root, "bin/scanarr.js"), ...serveCommand(installDir, options.logLevel)];
}

function serveCommand(installDir: string, logLevel = "info"): string[] {
  return ["--install-dir", installDir, "--log-format", "json", "--log-level", logLevel, "serve"];
}

/** Starts `scanarr serve` in a child process (from source, no build) and waits for its port. */
export async function spawnServe(installDir: string, timeoutMs = 20_000, options: SpawnServeOptions = {}): Promise<ChildServe> {
  const child = spawn(process.execPath, serveFromSourceArgs(repoRoot, installDir, options), {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: "1", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${text}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /"port":(\d+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stderr?.on("data", onData);
    child.stdout?.on("data", (c: Buffer) => (text += c.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before listening: ${text}`));
    });
  });
  return { child, port, output: () => text, exited };
}
