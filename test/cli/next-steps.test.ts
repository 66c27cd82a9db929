import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { scanarrCommand, scanarrProgram } from "../../src/cli/command-line.js";
import { resolveInstallPaths } from "../../src/lib/install-paths.js";
import { tempDir } from "../helpers/cli.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const tsx = import.meta.resolve("tsx");

/**
 * A checkout in a temp folder: package.json and bin/scanarr.js (executable, with the real
 * shebang) starts this repository's CLI from source, as the real shim starts
 * the built one.
 */
function checkout(name = "checkout"): { root: string; script: string } {
  const root = path.join(tempDir(), name);
  mkdirSync(path.join(root, "bin"), { recursive: true });
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "scanarr", type: "module" }));
  const script = path.join(root, "bin", "scanarr.js");
  writeFileSync(script, `#!/usr/bin/env node\nimport ${JSON.stringify(pathToFileURL(path.join(repoRoot, "src/cli/main.ts")).href)};\n`);
  chmodSync(script, 0o755);
  return { root, script };
}

/** `scanarr init` as a real process, started by `command` in `cwd`, with PATH as given. */
async function initThrough(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const installDir = tempDir();
  const result = await execa(command, [...args, "--install-dir", installDir, "init"], {
    cwd,
    env: { NODE_OPTIONS: `--import=${tsx}`, NO_COLOR: "1", ...env },
    extendEnv: false,
    reject: false,
  });
  expect(result.exitCode, result.stderr).toBe(0);
  return result.stdout.replaceAll(installDir, "<install>");
}

const systemPath = `${path.dirname(process.execPath)}${path.delimiter}/usr/bin${path.delimiter}/bin`;

describe("the next steps after scanarr init name a command that works from there", () => {
  it("say ./bin/scanarr.js when run from a checkout that is not on PATH", async () => {
    const { root } = checkout();
    const out = await initThrough(process.execPath, ["bin/scanarr.js"], root, { PATH: systemPath });
    expect(out).toContain("  3. Check:        ./bin/scanarr.js --install-dir <install> doctor\n");
    expect(out).toContain("Try a path:   ./bin/scanarr.js --install-dir <install> map ");
  });

  it("say scanarr when the scanarr on PATH is the one that ran", async () => {
    const { script } = checkout();
    const binDir = tempDir();
    symlinkSync(script, path.join(binDir, "scanarr"));
    const out = await initThrough("scanarr", [], tempDir(), { PATH: `${binDir}${path.delimiter}${systemPath}` });
    expect(out).toContain("  3. Check:        scanarr --install-dir <install> doctor\n");
  });

  it("say npx scanarr when started through npx", async () => {
    const { root } = checkout();
    const out = await initThrough(process.execPath, ["bin/scanarr.js"], root, {
      PATH: systemPath,
      npm_command: "exec",
      npm_lifecycle_event: "npx",
    });
    expect(out).toContain("  4. Run:          npx scanarr --install-dir <install> serve");
  });
});

describe("scanarrProgram", () => {
  it("gives the script's full path when run from outside the checkout, and quotes it when it must", () => {
    const { script } = checkout("with space");
    expect(scanarrProgram({ script, env: { PATH: systemPath }, cwd: tempDir() })).toBe(`'${script}'`);
  });

  it("ignores a different scanarr on PATH (an older global install) and names the script that ran", () => {
    const { root, script } = checkout();
    const other = checkout("other");
    const binDir = tempDir();
    symlinkSync(other.script, path.join(binDir, "scanarr"));
    expect(scanarrProgram({ script, env: { PATH: binDir }, cwd: root })).toBe("./bin/scanarr.js");
  });

  it("falls back to npx scanarr when the script is unknown or not scanarr's", () => {
    expect(scanarrProgram({ env: {}, cwd: "/" })).toBe("npx scanarr");
    expect(scanarrProgram({ script: "/usr/lib/node_modules/vitest/vitest.mjs", env: {}, cwd: "/" })).toBe("npx scanarr");
  });
});

describe("scanarrCommand", () => {
  const paths = resolveInstallPaths("/srv/scanarr");
  it("adds --install-dir when started elsewhere, and not when SCANARR_INSTALL_DIR already names the folder (the container)", () => {
    expect(scanarrCommand(paths, "/app", "scanarr")).toBe("scanarr --install-dir /srv/scanarr");
    expect(scanarrCommand(paths, "/app", "scanarr", { SCANARR_INSTALL_DIR: "/srv/scanarr" })).toBe("scanarr");
    expect(scanarrCommand(paths, "/srv/scanarr", "scanarr")).toBe("scanarr");
    expect(scanarrCommand(paths, "/app", "scanarr", { SCANARR_INSTALL_DIR: "/elsewhere" })).toBe("scanarr --install-dir /srv/scanarr");
  });
});
