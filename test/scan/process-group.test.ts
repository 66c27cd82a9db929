import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import type { Library } from "../../src/domain.js";
import { silentLogger } from "../../src/lib/logger.js";
import { createScannerTarget } from "../../src/targets/plex-scanner/scanner-target.js";
import { buildPlexDb } from "./helpers/plex-db.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TV: Library = { id: "2", title: "TV", type: "show", locations: ["/data/TV"] };
/** Far longer than any bound below: finishing early proves the grandchild did not hold us. */
const GRANDCHILD_SECONDS = 20;

/** A scanner that starts a grandchild holding its output open, notes the grandchild's pid, and waits for it. */
function grandchildScanner(): { scanner: string; pidFile: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "scanarr-pgroup-"));
  const scanner = path.join(dir, "Plex Media Scanner");
  const pidFile = path.join(dir, "grandchild.pid");
  writeFileSync(scanner, `#!/bin/sh\necho started\nsleep ${GRANDCHILD_SECONDS} &\necho $! > '${pidFile}'\nwait\n`);
  chmodSync(scanner, 0o755);
  return { scanner, pidFile };
}

/** Running, per /proc: a killed process may stay a zombie until whoever adopted it reaps it. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

/**
 * Waits (at most 5 s, a quarter of GRANDCHILD_SECONDS) for a process sent SIGKILL to be gone:
 * the signal takes effect when the kernel next runs it, which on a busy machine is not at once.
 */
async function killTakesEffect(pid: number): Promise<void> {
  const end = Date.now() + 5_000;
  while (isAlive(pid) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
}

function grandchildPid(pidFile: string): number {
  return Number(readFileSync(pidFile, "utf8").trim());
}

/** The service's scanner target, running `scanner` directly. */
function scannerTarget(scanner: string, options: { timeoutMs: number; signal?: AbortSignal }) {
  return createScannerTarget({
    settings: { scanner, ldLibraryPath: "/lib", supportDir: "/support", mode: { kind: "direct" } },
    databasePath: "/nonexistent.db",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    logger: silentLogger(),
    ...options,
  });
}

function scanarrScan(scanner: string, args: string[]) {
  const dir = mkdtempSync(path.join(tmpdir(), "scanarr-install-"));
  mkdirSync(path.join(dir, "config"));
  const db = buildPlexDb([{ id: 2, name: "TV", type: 2, locations: ["/data/TV"] }]);
  const config = { SERVER_PASS: "b".repeat(32), PLEX_SCANNER: scanner, PLEX_DATABASE_PATH: db };
  writeFileSync(path.join(dir, "config", "config.json"), JSON.stringify(config), { mode: 0o600 });
  return execa(
    process.execPath,
    ["--import", "tsx", "src/cli/main.ts", "--install-dir", dir, "scan", "--directory", "/data/TV/Show", ...args],
    {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1" },
      extendEnv: false,
      reject: false,
      timeout: 60_000,
    },
  );
}

describe("a scanner whose own child outlives it", () => {
  it("`scan --timeout 2` stops the whole process group and returns long before the grandchild would end", async () => {
    const { scanner, pidFile } = grandchildScanner();
    const started = Date.now();
    const result = await scanarrScan(scanner, ["--timeout", "2"]);
    const seconds = (Date.now() - started) / 1000;
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("did not finish within 2 s");
    expect(seconds).toBeLessThan(GRANDCHILD_SECONDS / 2);
    await killTakesEffect(grandchildPid(pidFile));
    expect(isAlive(grandchildPid(pidFile))).toBe(false);
  }, 60_000);

  it("Ctrl-C (SIGINT to scanarr alone) stops the whole group and exits 130", async () => {
    const { scanner, pidFile } = grandchildScanner();
    const child = scanarrScan(scanner, ["--timeout", "0"]);
    await new Promise<void>((resolve) => child.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes("started") && resolve()));
    const started = Date.now();
    child.kill("SIGINT");
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toContain("the scan was interrupted");
    expect((Date.now() - started) / 1000).toBeLessThan(GRANDCHILD_SECONDS / 2);
    if (existsSync(pidFile)) await killTakesEffect(grandchildPid(pidFile));
    expect(existsSync(pidFile) && isAlive(grandchildPid(pidFile))).toBe(false);
  }, 60_000);

  it("the service's scanner slot is free again after a timeout, without waiting for the grandchild", async () => {
    const { scanner, pidFile } = grandchildScanner();
    const target = scannerTarget(scanner, { timeoutMs: 1_000 });
    const started = Date.now();
    await expect(target.scan("/data/TV/Show", TV)).rejects.toThrow(/did not finish within 1 s/);
    await killTakesEffect(grandchildPid(pidFile));
    expect(isAlive(grandchildPid(pidFile))).toBe(false);
    // The next scan runs (and times out) in its own turn: the slot did not stall.
    await expect(target.scan("/data/TV/Other", TV)).rejects.toThrow(/did not finish within 1 s/);
    expect((Date.now() - started) / 1000).toBeLessThan(GRANDCHILD_SECONDS / 2);
  }, 60_000);

  it("stopping the service stops the scanner's whole group", async () => {
    const { scanner, pidFile } = grandchildScanner();
    const shutdown = new AbortController();
    const target = scannerTarget(scanner, { timeoutMs: 0, signal: shutdown.signal });
    const scan = target.scan("/data/TV/Show", TV);
    const failed = expect(scan).rejects.toThrow(/interrupted/);
    while (!existsSync(pidFile) || readFileSync(pidFile, "utf8").trim() === "") await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    shutdown.abort();
    await failed;
    expect((Date.now() - started) / 1000).toBeLessThan(GRANDCHILD_SECONDS / 2);
    await killTakesEffect(grandchildPid(pidFile));
    expect(isAlive(grandchildPid(pidFile))).toBe(false);
  }, 60_000);
});
