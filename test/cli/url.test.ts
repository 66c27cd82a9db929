import { mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { runCli, tempDir } from "../helpers/cli.js";

const PASS = "0123456789abcdef0123456789abcdef";

function installWith(config: Record<string, unknown>): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, "config"));
  writeFileSync(path.join(dir, "config", "config.json"), JSON.stringify(config), { mode: 0o600 });
  return dir;
}

describe("scanarr url", () => {
  it("prints the whole webhook URL once on stdout and the warning on stderr, even before PLEX_TOKEN is set", async () => {
    const dir = installWith({ ...defaultConfig(PASS), SERVER_IP: "0.0.0.0", SERVER_PORT: 3468, PLEX_TOKEN: "" });
    const { code, stdout, stderr } = await runCli(["--install-dir", dir, "url"]);
    expect(code).toBe(0);
    expect(stdout).toBe(`http://${hostname()}:3468/${PASS}\n`);
    expect(stderr).toContain("contains SERVER_PASS");
    expect(stderr).not.toContain(PASS);
  });

  it("uses SERVER_IP when it is one address, and --host when given", async () => {
    const dir = installWith({ ...defaultConfig(PASS), SERVER_IP: "127.0.0.1", SERVER_PORT: 4000 });
    expect((await runCli(["--install-dir", dir, "url"])).stdout).toBe(`http://127.0.0.1:4000/${PASS}\n`);
    expect((await runCli(["--install-dir", dir, "url", "--host", "scanarr"])).stdout).toBe(`http://scanarr:4000/${PASS}\n`);
    expect((await runCli(["--install-dir", dir, "url", "--host", "::1"])).stdout).toBe(`http://[::1]:4000/${PASS}\n`);
  });

  it("needs a SERVER_PASS of its own and a fixed port", async () => {
    const { SERVER_PASS: _omitted, ...noPass } = defaultConfig(PASS);
    const missing = await runCli(["--install-dir", installWith(noPass), "url"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("SERVER_PASS: missing");
    const anyPort = await runCli(["--install-dir", installWith({ ...defaultConfig(PASS), SERVER_PORT: 0 }), "url"]);
    expect(anyPort.code).toBe(1);
    expect(anyPort.stdout).toBe("");
  });
});
