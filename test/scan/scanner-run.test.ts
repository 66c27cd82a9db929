import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildScanCommand, type ScannerMode, type ScannerSettings } from "../../src/targets/plex-scanner/scanner-command.js";
import { runScanner } from "../../src/targets/plex-scanner/scanner.js";
import { createFakeBin, createSink, type FakeBin } from "./helpers/fake-bin.js";

const LD = "/usr/lib/plexmediaserver/lib";
const SUPPORT = "/config/Library/Application Support";
const NASTY = [
  `/data/TV/Bob's "Show" (2020)/Season 1`,
  "/data/Movies/$(touch /tmp/pwned) `id` $HOME",
  "/data/Music/Björk – Homogenic/日本語 ✓",
];

function settingsFor(bin: FakeBin, mode: ScannerMode): ScannerSettings {
  return { scanner: bin.scanner, ldLibraryPath: LD, supportDir: SUPPORT, mode };
}

async function run(bin: FakeBin, mode: ScannerMode, dir: string, extraEnv: NodeJS.ProcessEnv = {}, timeoutMs = 10_000) {
  const stdout = createSink();
  const stderr = createSink();
  const command = buildScanCommand(settingsFor(bin, mode), "2", dir);
  const result = await runScanner(command, { env: { ...bin.env, ...extraEnv }, timeoutMs, stdout, stderr, mode });
  return { result, stdout: stdout.text(), stderr: stderr.text() };
}

const SCANNER_ENV = { LD_LIBRARY_PATH: LD, PLEX_MEDIA_SERVER_APPLICATION_SUPPORT_DIR: SUPPORT };
const scanArgs = (dir: string) => ["--scan", "--refresh", "--section", "2", "--directory", dir];

describe.each(NASTY)("a directory like %s reaches the scanner byte for byte", (dir) => {
  it("through docker exec, with the variables given by -e and nothing from the host", async () => {
    const bin = createFakeBin();
    const { result } = await run(bin, { kind: "docker", container: "plex", user: "plex" }, dir);
    expect(result).toEqual({ exitCode: 0 });
    const [docker, scanner] = bin.records();
    expect(docker?.argv).toEqual([
      "exec",
      "-u",
      "plex",
      "-e",
      `LD_LIBRARY_PATH=${LD}`,
      "-e",
      `PLEX_MEDIA_SERVER_APPLICATION_SUPPORT_DIR=${SUPPORT}`,
      "plex",
      bin.scanner,
      ...scanArgs(dir),
    ]);
    expect(scanner).toEqual({ tool: "scanner", argv: scanArgs(dir), env: { ...SCANNER_ENV, FAKE_MARK: null } });
  });

  it("through sudo and env(1), which set the variables after sudo reset the environment", async () => {
    const bin = createFakeBin();
    const { result } = await run(bin, { kind: "sudo", user: "plex", nonInteractive: false }, dir);
    expect(result).toEqual({ exitCode: 0 });
    const [sudo, scanner] = bin.records();
    expect(sudo?.argv).toEqual([
      "-u",
      "plex",
      "env",
      `LD_LIBRARY_PATH=${LD}`,
      `PLEX_MEDIA_SERVER_APPLICATION_SUPPORT_DIR=${SUPPORT}`,
      bin.scanner,
      ...scanArgs(dir),
    ]);
    expect(scanner).toEqual({ tool: "scanner", argv: scanArgs(dir), env: { ...SCANNER_ENV, FAKE_MARK: null } });
  });

  it("directly, with the variables added to the given environment", async () => {
    const bin = createFakeBin();
    const { result, stdout, stderr } = await run(bin, { kind: "direct" }, dir);
    expect(result).toEqual({ exitCode: 0 });
    expect(bin.records()).toEqual([{ tool: "scanner", argv: scanArgs(dir), env: { ...SCANNER_ENV, FAKE_MARK: "from-scanarr" } }]);
    expect(stdout).toBe(`Scanning ${dir}\n`);
    expect(stderr).toContain("deprecated");
  });
});

describe("runScanner failures", () => {
  it("reports a missing scanner executable and exits 1", async () => {
    const bin = createFakeBin();
    const settings = { ...settingsFor(bin, { kind: "direct" }), scanner: path.join(bin.binDir, "nope", "Plex Media Scanner") };
    const result = await runScanner(buildScanCommand(settings, "1", "/m"), {
      env: bin.env,
      timeoutMs: 5000,
      stdout: createSink(),
      stderr: createSink(),
      mode: settings.mode,
    });
    expect(result.exitCode).toBe(1);
    expect(result.failure).toEqual({
      kind: "missing-executable",
      message: expect.stringContaining("nope/Plex Media Scanner was not found"),
    });
  });

  it("reports a missing docker binary", async () => {
    const bin = createFakeBin();
    const { result } = await run(bin, { kind: "docker", container: "plex", user: "plex" }, "/m", { PATH: "/nonexistent" });
    expect(result).toEqual({
      exitCode: 1,
      failure: { kind: "missing-executable", message: expect.stringMatching(/^docker was not found/) },
    });
  });

  it("reports a missing container by name", async () => {
    const bin = createFakeBin();
    const { result, stderr } = await run(bin, { kind: "docker", container: "plexx", user: "plex" }, "/m");
    expect(result).toEqual({ exitCode: 1, failure: { kind: "missing-container", message: "container plexx is missing or not running" } });
    expect(stderr).toContain("No such container: plexx");
  });

  it("reports a user missing inside the container", async () => {
    const bin = createFakeBin();
    const { result } = await run(bin, { kind: "docker", container: "plex", user: "plexuser" }, "/m");
    expect(result).toEqual({ exitCode: 1, failure: { kind: "missing-user", message: "user plexuser does not exist in container plex" } });
  });

  it("reports a scanner missing inside the container", async () => {
    const bin = createFakeBin();
    const settings = {
      ...settingsFor(bin, { kind: "docker", container: "plex", user: "abc" }),
      scanner: "/usr/lib/plexmediaserver/Plex Media Scanner",
    };
    const result = await runScanner(buildScanCommand(settings, "1", "/m"), {
      env: bin.env,
      timeoutMs: 5000,
      stdout: createSink(),
      stderr: createSink(),
      mode: settings.mode,
    });
    expect(result.exitCode).toBe(1);
    expect(result.failure?.kind).toBe("missing-executable");
    expect(result.failure?.message).toContain("inside container plex");
  });

  it("reports a scanner missing for the sudo user, as env(1) answers 127", async () => {
    const bin = createFakeBin();
    const settings = { ...settingsFor(bin, { kind: "sudo", user: "plex", nonInteractive: false }), scanner: "/nowhere/Plex Media Scanner" };
    const result = await runScanner(buildScanCommand(settings, "1", "/m"), {
      env: bin.env,
      timeoutMs: 5000,
      stdout: createSink(),
      stderr: createSink(),
      mode: settings.mode,
    });
    expect(result).toEqual({
      exitCode: 1,
      failure: { kind: "missing-executable", message: "/nowhere/Plex Media Scanner was not found or cannot run as user plex" },
    });
  });

  it("reports an unknown sudo user", async () => {
    const bin = createFakeBin();
    const { result } = await run(bin, { kind: "sudo", user: "ghost", nonInteractive: false }, "/m");
    expect(result).toEqual({ exitCode: 1, failure: { kind: "missing-user", message: "user ghost does not exist" } });
  });

  it("reports sudo wanting a password when it may not ask", async () => {
    const bin = createFakeBin();
    const { result } = await run(bin, { kind: "sudo", user: "plex", nonInteractive: true }, "/m", { FAKE_SUDO_NEEDS_PASSWORD: "1" });
    expect(result.failure?.kind).toBe("not-permitted");
  });

  it.each([
    ["direct", { kind: "direct" }],
    ["docker", { kind: "docker", container: "plex", user: "plex" }],
    ["sudo", { kind: "sudo", user: "plex", nonInteractive: false }],
  ] as const)("passes the scanner's own non-zero exit code through (%s)", async (_name, mode) => {
    const bin = createFakeBin();
    const { result } = await run(bin, mode, "/m", { FAKE_SCANNER_EXIT: "3" });
    expect(result).toEqual({ exitCode: 3, failure: { kind: "scanner-exit", message: "the scanner exited with code 3" } });
  });

  it("stops a scanner that outlives the timeout", async () => {
    const bin = createFakeBin();
    const { result } = await run(bin, { kind: "direct" }, "/m", { FAKE_SCANNER_SLEEP_MS: "20000" }, 300);
    expect(result).toEqual({
      exitCode: 1,
      failure: { kind: "timed-out", message: "the scanner did not finish within 0.3 s and was stopped" },
    });
  });

  it("stops the scanner and answers 130 when interrupted", async () => {
    const bin = createFakeBin();
    const controller = new AbortController();
    const settings = settingsFor(bin, { kind: "direct" });
    const pending = runScanner(buildScanCommand(settings, "1", "/m"), {
      env: { ...bin.env, FAKE_SCANNER_SLEEP_MS: "20000" },
      timeoutMs: 0,
      stdout: createSink(),
      stderr: createSink(),
      mode: settings.mode,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toEqual({ exitCode: 130, failure: { kind: "canceled", message: "the scan was interrupted" } });
  });
});

describe("runScanner and Ctrl-C", () => {
  it("answers 130 when the scanner itself died of SIGINT from the terminal", async () => {
    const bin = createFakeBin();
    const settings = settingsFor(bin, { kind: "direct" });
    const pending = runScanner(buildScanCommand(settings, "1", "/m"), {
      env: { ...bin.env, FAKE_SCANNER_SLEEP_MS: "20000" },
      timeoutMs: 0,
      stdout: createSink(),
      stderr: createSink(),
      mode: settings.mode,
    });
    // The scanner's first line proves it is running; then deliver what a terminal's Ctrl-C would.
    await expect.poll(() => bin.records().length, { timeout: 5000 }).toBe(1);
    const pid = findScannerPid(bin.scanner);
    process.kill(pid, "SIGINT");
    expect(await pending).toEqual({ exitCode: 130, failure: { kind: "canceled", message: "the scan was interrupted" } });
  });
});

function findScannerPid(scanner: string): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (cmdline.includes(scanner)) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  throw new Error("fake scanner process not found");
}
