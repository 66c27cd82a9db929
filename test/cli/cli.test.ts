import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { runCli, tempDir } from "../helpers/cli.js";

function installWith(config: unknown): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, "config"));
  writeFileSync(path.join(dir, "config", "config.json"), typeof config === "string" ? config : JSON.stringify(config), { mode: 0o600 });
  return dir;
}

describe("scanarr CLI shell", () => {
  it("lists the subcommands in --help and exits 0", async () => {
    const { code, stdout } = await runCli(["--help"]);
    expect(code).toBe(0);
    for (const name of ["serve", "init", "url", "map", "doctor", "authorize", "scan", "remote", "config"])
      expect(stdout).toMatch(new RegExp(`^  ${name}\\b`, "m"));
  });

  it("prints the package version", async () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    const { code, stdout } = await runCli(["--version"]);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(pkg.version);
  });

  it("exits 2 on an unknown command or option", async () => {
    expect((await runCli(["bogus"])).code).toBe(2);
    expect((await runCli(["config", "check", "--bogus"])).code).toBe(2);
  });

  it("takes the install dir from SCANARR_INSTALL_DIR", async () => {
    const dir = tempDir();
    expect((await runCli(["init"], { SCANARR_INSTALL_DIR: dir })).code).toBe(0);
    expect(existsSync(path.join(dir, "config", "config.json"))).toBe(true);
  });

  it("exits 2 and names all three mistakes in a bad config", async () => {
    const dir = installWith({
      ...defaultConfig("abcdefgh12345678"),
      PLEX_TOKEN: "plex-token-1234",
      SERVER_PORT: -1,
      USE_DOCKER: "yes",
      NOPE: true,
    });
    const { code, stderr } = await runCli(["--install-dir", dir, "config", "check"]);
    expect(code).toBe(2);
    expect(stderr).toContain("3 problems");
    expect(stderr).toContain("SERVER_PORT: must be at least 0");
    expect(stderr).toContain("USE_DOCKER: must be true or false");
    expect(stderr).toContain("NOPE: unknown key");
  });

  it("reports invalid JSON with its line and column and exits 2", async () => {
    const dir = installWith('{\n  "SERVER_PORT": 3468,,\n}');
    const { code, stderr } = await runCli(["--install-dir", dir, "config", "check"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/line 2, column \d+/);
  });

  it("shows the config with secrets masked, as text or JSON", async () => {
    const config = defaultConfig("0123456789abcdef0123456789abcdef");
    config.PLEX_TOKEN = "plex-token-secret-XYZW";
    config.CLOUD.CLIENT_SECRET = "client-secret-value-QRST";
    const dir = installWith(config);
    const text = await runCli(["--install-dir", dir, "config", "show"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('SERVER_PASS = "****cdef"');
    const json = await runCli(["--install-dir", dir, "config", "show", "--json"]);
    const shown = JSON.parse(json.stdout) as typeof config;
    expect(shown.PLEX_TOKEN).toBe("****XYZW");
    expect(shown.CLOUD.CLIENT_SECRET).toBe("****QRST");
    for (const out of [text.stdout, json.stdout]) {
      expect(out).not.toContain("0123456789abcdef0123456789abcdef");
      expect(out).not.toContain("plex-token-secret");
      expect(out).not.toContain("client-secret-value");
    }
  });

  it("uses --config over the install dir", async () => {
    const dir = installWith({ ...defaultConfig("abcdefgh12345678"), PLEX_TOKEN: "plex-token-1234", SERVER_PORT: 1 });
    const file = path.join(dir, "elsewhere.json");
    writeFileSync(file, JSON.stringify({ ...defaultConfig("abcdefgh12345678"), PLEX_TOKEN: "plex-token-1234", SERVER_PORT: 2 }), {
      mode: 0o600,
    });
    const { code, stdout } = await runCli(["--install-dir", dir, "--config", file, "config", "show", "--json"]);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { SERVER_PORT: number }).SERVER_PORT).toBe(2);
  });
});
