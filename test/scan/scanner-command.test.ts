import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../src/config/defaults.js";
import type { Config } from "../../src/config/types.js";
import { UserError } from "../../src/domain.js";
import {
  buildScanCommand,
  formatCommand,
  quoteForReading,
  resolveScannerSettings,
  type ScannerSettings,
} from "../../src/targets/plex-scanner/scanner-command.js";

const config = (overrides: Partial<Config> = {}): Config => ({ ...defaultConfig("a".repeat(32)), ...overrides });
const SCANNER = "/usr/lib/plexmediaserver/Plex Media Scanner";
const LD = "/usr/lib/plexmediaserver/lib";
const SUPPORT = "/config/Library/Application Support";
const settings = (mode: ScannerSettings["mode"]): ScannerSettings => ({ scanner: SCANNER, ldLibraryPath: LD, supportDir: SUPPORT, mode });
const DIR = `/data/TV/Bob's "Show" $(rm -rf ~) \`id\` Ünïcødé/Season 1`;
const SCAN_ARGS = ["--scan", "--refresh", "--section", "2", "--directory", DIR];

describe("buildScanCommand", () => {
  it("runs docker exec as the Plex user with both variables passed by -e", () => {
    const command = buildScanCommand(settings({ kind: "docker", container: "plex", user: "abc" }), "2", DIR);
    expect(command).toEqual({
      file: "docker",
      args: [
        "exec",
        "-u",
        "abc",
        "-e",
        `LD_LIBRARY_PATH=${LD}`,
        "-e",
        `PLEX_MEDIA_SERVER_APPLICATION_SUPPORT_DIR=${SUPPORT}`,
        "plex",
        SCANNER,
        ...SCAN_ARGS,
      ],
      env: {},
    });
  });

  it("runs sudo -u USER env VAR=… with the scanner and its arguments as separate words", () => {
    const command = buildScanCommand(settings({ kind: "sudo", user: "plex", nonInteractive: false }), "2", DIR);
    expect(command).toEqual({
      file: "sudo",
      args: ["-u", "plex", "env", `LD_LIBRARY_PATH=${LD}`, `PLEX_MEDIA_SERVER_APPLICATION_SUPPORT_DIR=${SUPPORT}`, SCANNER, ...SCAN_ARGS],
      env: {},
    });
  });

  it("adds -n for the service so sudo fails instead of waiting for a password", () => {
    const command = buildScanCommand(settings({ kind: "sudo", user: "plex", nonInteractive: true }), "2", DIR);
    expect(command.args.slice(0, 4)).toEqual(["-n", "-u", "plex", "env"]);
  });

  it("runs the scanner itself with the two variables in the child's environment", () => {
    const command = buildScanCommand(settings({ kind: "direct" }), "2", DIR);
    expect(command).toEqual({
      file: SCANNER,
      args: SCAN_ARGS,
      env: { LD_LIBRARY_PATH: LD, PLEX_MEDIA_SERVER_APPLICATION_SUPPORT_DIR: SUPPORT },
    });
  });

  it("leaves out a variable whose setting is empty, so the container's own value applies", () => {
    const command = buildScanCommand({ ...settings({ kind: "docker", container: "plex", user: "abc" }), supportDir: "" }, "1", "/m");
    expect(command.args).toEqual([
      "exec",
      "-u",
      "abc",
      "-e",
      `LD_LIBRARY_PATH=${LD}`,
      "plex",
      SCANNER,
      "--scan",
      "--refresh",
      "--section",
      "1",
      "--directory",
      "/m",
    ]);
  });

  it("refuses a scanner path with '=' under sudo, which env(1) would take for an assignment", () => {
    const odd = { ...settings({ kind: "sudo", user: "plex", nonInteractive: false }), scanner: "/opt/a=b/scanner" };
    expect(() => buildScanCommand(odd, "1", "/m")).toThrow(/env\(1\) cannot run/);
  });
});

describe("resolveScannerSettings", () => {
  it("follows the config when no flag is given", () => {
    expect(resolveScannerSettings(config({ USE_DOCKER: true, DOCKER_NAME: "pms", PLEX_USER: "plex" })).mode).toEqual({
      kind: "docker",
      container: "pms",
      user: "plex",
    });
    expect(resolveScannerSettings(config({ USE_SUDO: true })).mode).toEqual({ kind: "sudo", user: "plex", nonInteractive: false });
    expect(resolveScannerSettings(config()).mode).toEqual({ kind: "direct" });
  });

  it("prefers Docker when the config sets both USE_DOCKER and USE_SUDO", () => {
    expect(resolveScannerSettings(config({ USE_DOCKER: true, USE_SUDO: true })).mode.kind).toBe("docker");
  });

  it("lets --docker NAME and --user beat the config", () => {
    const mode = resolveScannerSettings(config({ USE_SUDO: true }), { docker: "plex-ls", user: "abc" }).mode;
    expect(mode).toEqual({ kind: "docker", container: "plex-ls", user: "abc" });
  });

  it("uses DOCKER_NAME for a bare --docker", () => {
    expect(resolveScannerSettings(config({ DOCKER_NAME: "pms" }), { docker: true }).mode).toEqual({
      kind: "docker",
      container: "pms",
      user: "plex",
    });
  });

  it("falls back to sudo from the config when --no-docker is given", () => {
    expect(resolveScannerSettings(config({ USE_DOCKER: true, USE_SUDO: true }), { docker: false }).mode.kind).toBe("sudo");
  });

  it("lets --sudo beat USE_DOCKER and --no-sudo beat USE_SUDO", () => {
    expect(resolveScannerSettings(config({ USE_DOCKER: true }), { sudo: true }).mode.kind).toBe("sudo");
    expect(resolveScannerSettings(config({ USE_SUDO: true }), { sudo: false }).mode.kind).toBe("direct");
  });

  it("rejects --docker together with --sudo as a usage error", () => {
    const attempt = () => resolveScannerSettings(config(), { docker: true, sudo: true });
    expect(attempt).toThrow(UserError);
    expect(attempt).toThrow(expect.objectContaining({ exitCode: 2 }));
  });

  it("rejects an empty user or container name as a config error", () => {
    expect(() => resolveScannerSettings(config({ USE_DOCKER: true, DOCKER_NAME: "" }))).toThrow(/container name/);
    expect(() => resolveScannerSettings(config({ USE_SUDO: true, PLEX_USER: " " }))).toThrow(/user/);
  });
});

describe("formatCommand", () => {
  it("leaves plain words bare and single-quotes the rest", () => {
    expect(quoteForReading("--section")).toBe("--section");
    expect(quoteForReading("a b")).toBe("'a b'");
    expect(quoteForReading("it's")).toBe(`'it'\\''s'`);
    expect(quoteForReading("")).toBe("''");
  });

  it("prints a line a POSIX shell reads back into the very same argv and variables", () => {
    const command = buildScanCommand(settings({ kind: "direct" }), "2", DIR);
    const line = formatCommand(command);
    expect(line.startsWith(`LD_LIBRARY_PATH=${LD} PLEX_MEDIA_SERVER_APPLICATION_SUPPORT_DIR='${SUPPORT}' '${SCANNER}' --scan`)).toBe(true);
    // Replace the executable by a printer: sh must split the rest exactly as execa receives it.
    const printer = `printf '%s\\0' "$LD_LIBRARY_PATH" "$PLEX_MEDIA_SERVER_APPLICATION_SUPPORT_DIR"; shift 0; printf '%s\\0' "$@"`;
    const words = line.replace(`'${SCANNER}'`, "set --").concat(`; ${printer}`);
    const out = execFileSync("sh", ["-c", words], { encoding: "utf8" }).split("\0").slice(0, -1);
    expect(out).toEqual([LD, SUPPORT, ...SCAN_ARGS]);
  });
});
