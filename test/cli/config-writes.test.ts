import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createContext, type IO } from "../../src/cli/bootstrap.js";
import { defaultConfig } from "../../src/config/defaults.js";
import { runCli, tempDir } from "../helpers/cli.js";

const TOKEN = '{"access_token":"ya29.FAKE","token_type":"Bearer","refresh_token":"1//FAKE","expiry":"2030-01-01T00:00:00Z"}';

function configWithout(key: string, extra: Record<string, unknown> = {}): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, "config"));
  const config: Record<string, unknown> = { ...defaultConfig("abcdefgh12345678"), PLEX_TOKEN: "plex-token-1234", ...extra };
  delete config[key];
  writeFileSync(path.join(dir, "config", "config.json"), JSON.stringify(config), { mode: 0o600 });
  return dir;
}

function io(cwd: string): IO {
  return {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: {},
    cwd,
    signal: new AbortController().signal,
  };
}

describe("which commands may write a config", () => {
  it("refuses a --config that names a missing file, writes nothing there and exits 2 (config check)", async () => {
    const typo = path.join(tempDir(), "nope", "confg.json");
    const { code, stderr } = await runCli(["--config", typo, "config", "check"]);
    expect(code).toBe(2);
    expect(stderr).toContain(`config file ${typo} does not exist`);
    expect(stderr).not.toContain("config OK");
    expect(existsSync(path.dirname(typo))).toBe(false);
  });

  it("refuses to serve on a --config that names a missing file instead of starting on defaults", async () => {
    const typo = path.join(tempDir(), "confg.json");
    const { code, stderr } = await runCli(["--config", typo, "serve"]);
    expect(code).toBe(2);
    expect(stderr).toContain("check the path given with --config");
    expect(existsSync(typo)).toBe(false);
  });

  it("leaves an empty folder empty whatever command runs there, even when the command then fails", async () => {
    const commands = [
      ["config", "check"],
      ["config", "show"],
      ["remote", "create", "--non-interactive"],
      ["map", "/tv/x.mkv"],
      ["doctor"],
      ["url"],
      ["authorize"],
      ["scan"],
    ];
    for (const args of commands) {
      const empty = tempDir();
      const { code } = await runCli(args, {}, "", empty);
      expect(code, args.join(" ")).toBe(2);
      expect(readdirSync(empty), args.join(" ")).toEqual([]);
    }
  });

  it("tells how to start when the default config is missing", async () => {
    const { stderr } = await runCli(["config", "check"], {}, "", tempDir());
    expect(stderr).toMatch(/config\.json does not exist; run `scanarr init`/);
  });

  it("runs `remote create` from an empty folder without writing a scanarr config", async () => {
    const empty = tempDir();
    const rcloneConf = path.join(tempDir(), "rclone.conf");
    const args = ["remote", "create", "gd", "--non-interactive", "--rclone-config", rcloneConf, "--token", TOKEN];
    const { code, stdout } = await runCli(args, { HOME: empty }, "", empty);
    expect(code).toBe(0);
    expect(stdout).toContain(`Saved ${rcloneConf}`);
    expect(stdout).toContain(`"CLOUD": {"ENABLED": true, "RCLONE_REMOTE": "gd:"}, "RCLONE": {"CONFIG": ${JSON.stringify(rcloneConf)}}`);
    expect(readdirSync(empty)).toEqual([]);
  });

  it("runs `remote create` and `scan` with a config that has no SERVER_PASS, which they never use", async () => {
    const dir = configWithout("SERVER_PASS", { PLEX_SCAN_METHOD: "scanner", PLEX_DATABASE_PATH: "" });
    const rcloneConf = path.join(tempDir(), "rclone.conf");
    const remote = await runCli([
      "--install-dir",
      dir,
      "remote",
      "create",
      "gd",
      "--non-interactive",
      "--rclone-config",
      rcloneConf,
      "--token",
      TOKEN,
    ]);
    expect(remote.code, remote.stderr).toBe(0);
    const scan = await runCli([
      "--install-dir",
      dir,
      "scan",
      "--directory",
      "/data/TV/Show",
      "--section",
      "2",
      "--dry-run",
      "--no-docker",
      "--no-sudo",
    ]);
    expect(scan.code, scan.stderr).toBe(0);
    expect(scan.stdout).toContain("/data/TV/Show");
  });

  it("still refuses to serve or pass `config check` without SERVER_PASS", async () => {
    const dir = configWithout("SERVER_PASS");
    const check = await runCli(["--install-dir", dir, "config", "check"]);
    expect(check.code).toBe(2);
    expect(check.stderr).toContain("SERVER_PASS: missing");
    expect((await runCli(["--install-dir", dir, "serve"])).code).toBe(2);
  });

  it("creates the starting config only for serve on the default path", async () => {
    const dir = tempDir();
    const ctx = await createContext({ logLevel: "silent", logFormat: "json" }, io(dir), { file: "create", require: ["server", "plex"] });
    const file = path.join(dir, "config", "config.json");
    expect(ctx.paths.configFile).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(ctx.config.SERVER_PASS).toMatch(/^[0-9a-f]{32}$/);
    const explicit = path.join(dir, "other.json");
    await expect(createContext({ logLevel: "silent", logFormat: "json", config: explicit }, io(dir), { file: "create" })).rejects.toThrow(
      /does not exist/,
    );
    expect(existsSync(explicit)).toBe(false);
  });
});

describe("scanarr init", () => {
  it("writes a commented starting config (0600, in a 0700 folder it creates) that loads, and prints what to edit next", async () => {
    const dir = tempDir();
    const { code, stdout } = await runCli(["init"], {}, "", dir);
    const file = path.join(dir, "config", "config.json");
    expect(code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, "config")).mode & 0o777).toBe(0o700);
    const written = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    expect(written._SERVER_PATH_MAPPINGS).toEqual(expect.stringContaining("EDIT"));
    expect(written.SERVER_PASS).toMatch(/^[0-9a-f]{32}$/);
    for (const step of ["PLEX_TOKEN", "docs/plex-token.md", "SERVER_PATH_MAPPINGS", "scanarr map", "scanarr doctor", "scanarr url"]) {
      expect(stdout).toContain(step);
    }
    expect(stdout).not.toContain(String(written.SERVER_PASS));
    // Loads with its notes ignored; only the token the user must add is missing.
    const check = await runCli(["config", "check"], {}, "", dir);
    expect(check.code).toBe(2);
    expect(check.stderr).toMatch(/^error: config file .*: PLEX_TOKEN: must be set when PLEX_SCAN_METHOD is "api"/);
  });

  it("leaves the mode of a config folder that already exists as it is", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "config"), { mode: 0o750 });
    chmodSync(path.join(dir, "config"), 0o750);
    expect((await runCli(["init"], {}, "", dir)).code).toBe(0);
    expect(statSync(path.join(dir, "config")).mode & 0o777).toBe(0o750);
    expect(statSync(path.join(dir, "config", "config.json")).mode & 0o777).toBe(0o600);
  });

  it("writes where --config points, and refuses to overwrite an existing file", async () => {
    const file = path.join(tempDir(), "sub", "scanarr.json");
    expect((await runCli(["--config", file, "init"])).code).toBe(0);
    const before = readFileSync(file, "utf8");
    const again = await runCli(["--config", file, "init"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already exists");
    expect(readFileSync(file, "utf8")).toBe(before);
  });
});
