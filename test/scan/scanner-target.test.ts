import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import { TargetAuthError, TargetFatalError, TargetUnavailableError, type Library } from "../../src/domain.js";
import { silentLogger } from "../../src/lib/logger.js";
import type { ScannerMode } from "../../src/targets/plex-scanner/scanner-command.js";
import { flatPlexEntry } from "../../src/config/plex-entry.js";
import { createScannerTarget, createScannerTargetFromConfig } from "../../src/targets/plex-scanner/scanner-target.js";
import { createFakeBin, type FakeBin } from "./helpers/fake-bin.js";
import { buildPlexDb } from "./helpers/plex-db.js";

const TV: Library = { id: "2", title: "TV", type: "show", locations: ["/data/TV"] };

function target(bin: FakeBin, mode: ScannerMode, env: NodeJS.ProcessEnv = {}, databasePath = "/nonexistent.db") {
  return createScannerTarget({
    settings: { scanner: bin.scanner, ldLibraryPath: "/lib", supportDir: "/support", mode },
    databasePath,
    env: { ...bin.env, ...env },
    logger: silentLogger(),
    timeoutMs: 10_000,
  });
}

describe("the scanner target", () => {
  it("runs one scan at a time, in the order asked", async () => {
    const bin = createFakeBin();
    const t = target(bin, { kind: "direct" }, { FAKE_SCANNER_SLEEP_MS: "150", FAKE_SCANNER_MARK_END: "1" });
    await Promise.all(["/data/TV/A", "/data/TV/B", "/data/TV/C"].map((folder) => t.scan(folder, TV)));
    const sequence = bin.records().map((r) => `${r.tool} ${r.argv[r.argv.length - 1]}`);
    expect(sequence).toEqual([
      "scanner /data/TV/A",
      "scanner-end /data/TV/A",
      "scanner /data/TV/B",
      "scanner-end /data/TV/B",
      "scanner /data/TV/C",
      "scanner-end /data/TV/C",
    ]);
  });

  it("keeps scanning after one scan failed", async () => {
    const bin = createFakeBin();
    const broken = target(bin, { kind: "docker", container: "gone", user: "plex" });
    const first = broken.scan("/data/TV/A", TV);
    const second = broken.scan("/data/TV/B", TV);
    await expect(first).rejects.toBeInstanceOf(TargetUnavailableError);
    await expect(second).rejects.toThrow(/container gone is missing/);
  });

  it("passes the library id as --section", async () => {
    const bin = createFakeBin();
    await target(bin, { kind: "sudo", user: "plex", nonInteractive: true }).scan("/data/TV/Show", TV);
    expect(bin.records().find((r) => r.tool === "scanner")?.argv).toEqual([
      "--scan",
      "--refresh",
      "--section",
      "2",
      "--directory",
      "/data/TV/Show",
    ]);
  });

  it("retries later on a non-zero scanner exit, quoting the scanner's last words", async () => {
    const bin = createFakeBin();
    const scan = target(bin, { kind: "direct" }, { FAKE_SCANNER_EXIT: "1" }).scan("/data/TV/A", TV);
    await expect(scan).rejects.toBeInstanceOf(TargetUnavailableError);
    await expect(scan).rejects.toThrow(
      /exited with code 1 \(last output: Scanning \/data\/TV\/A \| The '--scan' operation is deprecated\)/,
    );
  });

  it("gives up on a missing scanner: no retry fixes the config", async () => {
    const bin = createFakeBin();
    const t = createScannerTarget({
      settings: { scanner: "/nowhere/Plex Media Scanner", ldLibraryPath: "", supportDir: "", mode: { kind: "direct" } },
      databasePath: "/x.db",
      env: bin.env,
      logger: silentLogger(),
    });
    await expect(t.scan("/data/TV/A", TV)).rejects.toBeInstanceOf(TargetFatalError);
  });

  it("gives up on a user missing in the container", async () => {
    const bin = createFakeBin();
    await expect(target(bin, { kind: "docker", container: "plex", user: "nobody" }).scan("/data/TV/A", TV)).rejects.toBeInstanceOf(
      TargetFatalError,
    );
  });

  it("stops and says so when sudo wants a password", async () => {
    const bin = createFakeBin();
    const t = target(bin, { kind: "sudo", user: "plex", nonInteractive: true }, { FAKE_SUDO_NEEDS_PASSWORD: "1" });
    await expect(t.scan("/data/TV/A", TV)).rejects.toBeInstanceOf(TargetAuthError);
  });

  it("lists libraries from the read-only database", async () => {
    const bin = createFakeBin();
    const db = buildPlexDb([{ id: 2, name: "TV", type: 2, locations: ["/data/TV"] }]);
    expect(await target(bin, { kind: "direct" }, {}, db).listLibraries()).toEqual([TV]);
  });

  it("reports an unreadable database as unavailable, naming the file", async () => {
    const bin = createFakeBin();
    const listing = target(bin, { kind: "direct" }, {}, "/nonexistent/library.db").listLibraries();
    await expect(listing).rejects.toBeInstanceOf(TargetUnavailableError);
    await expect(listing).rejects.toThrow(/\/nonexistent\/library\.db/);
  });

  it("is built from the config with a sudo that never prompts", async () => {
    const bin = createFakeBin();
    const config = { ...defaultConfig("a".repeat(32)), PLEX_SCANNER: bin.scanner, USE_SUDO: true, PLEX_SCAN_METHOD: "scanner" as const };
    const t = createScannerTargetFromConfig(config, flatPlexEntry(config), { env: bin.env, logger: silentLogger() });
    await t.scan("/data/TV/A", TV);
    expect(bin.records()[0]?.argv.slice(0, 3)).toEqual(["-n", "-u", "plex"]);
  });
});
