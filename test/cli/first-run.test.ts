import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { createContext, type IO } from "../../src/cli/bootstrap.js";
import { COMMANDS } from "../../src/cli/registry.js";
import { run as runServe } from "../../src/cli/serve.js";
import { defaultConfig } from "../../src/config/defaults.js";
import { tempDir } from "../helpers/cli.js";

const repoRoot = path.resolve(import.meta.dirname, "../..");

function io(cwd: string, signal: AbortSignal = new AbortController().signal): IO & { stderrText: () => string } {
  const stderr = new PassThrough();
  let text = "";
  stderr.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });
  return {
    stdout: new PassThrough(),
    stderr,
    stdin: new PassThrough(),
    env: { PATH: "" },
    cwd,
    signal,
    script: path.join(repoRoot, "bin", "scanarr.js"),
    stderrText: () => text,
  };
}

const serveUse = COMMANDS.find((command) => command.name === "serve")?.config;

describe("serve on a fresh folder, then again on the config it wrote", () => {
  it("runs both times, and both times names the command that finishes the set-up", async () => {
    if (serveUse === undefined) throw new Error("no serve command in the registry");
    const dir = tempDir();
    const first = io(dir);
    const created = await createContext({ logLevel: "silent", logFormat: "json" }, first, serveUse);
    expect(first.stderrText()).toMatch(/Wrote a default config to .*config\.json .*`[^`]*scanarr\.js setup` finishes the set-up/);
    expect(created.unmet).toEqual([expect.stringContaining("PLEX_TOKEN")]);

    // The second run loads the file the first one wrote: no refusal, the same unmet token.
    const controller = new AbortController();
    const second = io(dir, controller.signal);
    const ctx = await createContext({ logLevel: "info", logFormat: "json" }, second, serveUse);
    expect(ctx.unmet).toEqual(created.unmet);
    ctx.config.SERVER_IP = "127.0.0.1";
    ctx.config.SERVER_PORT = 0;
    const running = runServe({}, ctx);
    await waitForLine(second, /set-up not finished/);
    controller.abort("SIGTERM");
    expect(await running).toBe(0);
    const warning =
      second
        .stderrText()
        .split("\n")
        .find((line) => line.includes("set-up not finished")) ?? "";
    expect(warning).toContain("PLEX_TOKEN: must be set");
    expect(warning).toMatch(/run `[^`]*scanarr\.js setup` to finish the set-up/);
  });
});

async function waitForLine(stream: { stderrText: () => string }, pattern: RegExp, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pattern.test(stream.stderrText())) {
    if (Date.now() > end) throw new Error(`no line matching ${pattern} in: ${stream.stderrText()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether something accepts connections on 127.0.0.1:port now. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("npm start", () => {
  it("stops serve with it: SIGTERM to npm leaves no serve holding the port", async () => {
    // A package with the real start script, whose bin/scanarr.js runs this checkout's source (no build).
    const pkg = tempDir();
    const { scripts } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { scripts: Record<string, string> };
    writeFileSync(
      path.join(pkg, "package.json"),
      JSON.stringify({ name: "start-check", private: true, type: "module", scripts: { start: scripts.start } }),
    );
    mkdirSync(path.join(pkg, "bin"));
    writeFileSync(
      path.join(pkg, "bin", "scanarr.js"),
      `import ${JSON.stringify(pathToFileURL(path.join(repoRoot, "src/cli/main.ts")).href)};\n`,
    );
    const install = tempDir();
    mkdirSync(path.join(install, "config"));
    const config = { ...defaultConfig("abcdefgh12345678abcdefgh12345678"), SERVER_IP: "127.0.0.1", SERVER_PORT: 0, PLEX_TOKEN: "t0ken" };
    writeFileSync(path.join(install, "config", "config.json"), JSON.stringify(config), { mode: 0o600 });

    // --ignore-scripts skips prestart (the build); npm still runs the start script itself.
    const npm = spawn("npm", ["start", "--ignore-scripts", "--silent"], {
      cwd: pkg,
      env: {
        ...process.env,
        SCANARR_INSTALL_DIR: install,
        NO_COLOR: "1",
        NODE_OPTIONS: `--import ${pathToFileURL(path.join(repoRoot, "node_modules/tsx/dist/esm/index.mjs")).href}`,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    npm.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        if (match) {
          clearInterval(timer);
          resolve(Number(match[1]));
        } else if (npm.exitCode !== null) {
          clearInterval(timer);
          reject(new Error(`npm start exited: ${output}`));
        }
      }, 20);
    });
    expect(await listening(port)).toBe(true);
    npm.kill("SIGTERM");
    await exited;
    // serve finishes its stop (deliveries in flight get up to 10 s); the port must then be free.
    const end = Date.now() + 15_000;
    while ((await listening(port)) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await listening(port)).toBe(false);
    expect(output).toContain("stopped");
  }, 40_000);
});
