import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { createFakeBin, type FakeBin } from "./helpers/fake-bin.js";
import { buildPlexDb } from "./helpers/plex-db.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function install(bin: FakeBin): string {
  const dir = mkdtempSync(path.join(tmpdir(), "scanarr-install-"));
  mkdirSync(path.join(dir, "config"));
  const db = buildPlexDb([{ id: 2, name: "TV", type: 2, locations: ["/data/TV"] }]);
  const config = { SERVER_PASS: "b".repeat(32), PLEX_SCANNER: bin.scanner, PLEX_DATABASE_PATH: db };
  writeFileSync(path.join(dir, "config", "config.json"), JSON.stringify(config), { mode: 0o600 });
  return dir;
}

function scanarr(bin: FakeBin, args: string[]) {
  const env = { ...bin.env, PATH: `${bin.binDir}:${process.env.PATH ?? "/usr/bin:/bin"}`, NO_COLOR: "1" };
  return execa(process.execPath, ["--import", "tsx", "src/cli/main.ts", "--install-dir", install(bin), "scan", ...args], {
    cwd: repoRoot,
    env,
    extendEnv: false,
    reject: false,
    timeout: 20_000,
  });
}

describe("scanarr scan, spawned as a user would run it", () => {
  const dir = `/data/TV/Bob's "Show" $(id) \`id\`/Säison 1`;

  it("runs the scanner with the folder byte for byte and exits with its code", async () => {
    const bin = createFakeBin();
    bin.env.FAKE_SCANNER_EXIT = "5";
    const result = await scanarr(bin, ["--directory", dir]);
    expect(result.exitCode).toBe(5);
    expect(result.stdout).toBe(`Scanning ${dir}`);
    expect(bin.records()[0]?.argv).toEqual(["--scan", "--refresh", "--section", "2", "--directory", dir]);
  });

  it("prints the docker command on --dry-run and runs nothing", async () => {
    const bin = createFakeBin();
    const result = await scanarr(bin, ["--directory", dir, "--docker", "pms", "--user", "abc", "--dry-run"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`docker exec -u abc -e LD_LIBRARY_PATH=/usr/lib/plexmediaserver/lib`);
    expect(result.stdout).toContain(
      ` pms '${bin.scanner}' --scan --refresh --section 2 --directory '/data/TV/Bob'\\''s "Show" $(id) \`id\`/Säison 1'`,
    );
    expect(bin.records()).toEqual([]);
  });

  it("exits 2 with one line for a section that is not a number", async () => {
    const result = await scanarr(createFakeBin(), ["--directory", "/data/TV/x", "--section", "two"]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe('error: --section must be a positive integer, got "two"');
  });

  it("lists the libraries", async () => {
    const result = await scanarr(createFakeBin(), ["--list"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split("\n")).toEqual(["ID  TYPE  NAME  LOCATIONS", "2   show  TV    /data/TV"]);
  });
});
