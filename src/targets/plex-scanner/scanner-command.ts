import { UserError } from "../../domain.js";
import type { Config } from "../../config/types.js";

/** How the scanner is reached: inside the Plex container, through sudo, or directly. */
export type ScannerMode =
  | { kind: "docker"; container: string; user: string }
  | { kind: "sudo"; user: string; nonInteractive: boolean }
  | { kind: "direct" };

export interface ScannerSettings {
  scanner: string;
  ldLibraryPath: string;
  supportDir: string;
  mode: ScannerMode;
}

/** An executable, its arguments, and variables to add to the child's environment. */
export interface ScannerCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
}

/** Flags that override the config; undefined means "as configured". */
export interface ScannerOverrides {
  /** A container name, `true` for DOCKER_NAME, `false` to not use Docker. */
  docker?: string | boolean;
  sudo?: boolean;
  user?: string;
}

/** How Plex Media Scanner runs on this machine: flat keys, shared by `scan` and a Plex entry with the scanner method. */
export type ScannerKeys = Pick<
  Config,
  "PLEX_SCANNER" | "PLEX_LD_LIBRARY_PATH" | "PLEX_SUPPORT_DIR" | "PLEX_USER" | "USE_DOCKER" | "DOCKER_NAME" | "USE_SUDO"
>;

/**
 * The effective way to run the scanner. A flag beats the config; with both
 * USE_DOCKER and USE_SUDO set, Docker wins, as it did in plex_autoscan.
 */
export function resolveScannerSettings(config: ScannerKeys, overrides: ScannerOverrides = {}, nonInteractive = false): ScannerSettings {
  const dockerFlag = overrides.docker === true || typeof overrides.docker === "string";
  if (overrides.sudo === true && dockerFlag) {
    throw new UserError("--docker and --sudo cannot be combined: pick one way to reach the scanner", 2);
  }
  if (config.PLEX_SCANNER.trim() === "") throw new UserError("PLEX_SCANNER is empty: set the path of Plex Media Scanner", 2);
  const useDocker = overrides.docker !== undefined ? overrides.docker !== false : overrides.sudo !== true && config.USE_DOCKER;
  const useSudo = !useDocker && (overrides.sudo ?? config.USE_SUDO);
  const user = () => requireName(overrides.user ?? config.PLEX_USER, "user (--user or PLEX_USER)");
  let mode: ScannerMode = { kind: "direct" };
  if (useDocker) {
    const container = typeof overrides.docker === "string" ? overrides.docker : config.DOCKER_NAME;
    mode = { kind: "docker", container: requireName(container, "container name (--docker <name> or DOCKER_NAME)"), user: user() };
  } else if (useSudo) {
    mode = { kind: "sudo", user: user(), nonInteractive };
  }
  return { scanner: config.PLEX_SCANNER, ldLibraryPath: config.PLEX_LD_LIBRARY_PATH, supportDir: config.PLEX_SUPPORT_DIR, mode };
}

/**
 * The argv for `--scan --refresh --section N --directory DIR`. Values travel
 * as separate arguments, never through a shell, so they arrive byte for byte.
 * An empty PLEX_LD_LIBRARY_PATH or PLEX_SUPPORT_DIR is left out rather than
 * set empty, so the container's own value (linuxserver sets one) still applies.
 */
export function buildScanCommand(settings: ScannerSettings, section: string, directory: string): ScannerCommand {
  return buildScannerCommand(settings, ["--scan", "--refresh", "--section", section, "--directory", directory]);
}

/** Any scanner action (`--scan …`, `--analyze --item …`), reached the configured way (docker, sudo, direct). */
export function buildScannerCommand(settings: ScannerSettings, scannerArgs: readonly string[]): ScannerCommand {
  const vars = scannerEnv(settings);
  const mode = settings.mode;
  if (mode.kind === "docker") {
    const envFlags = Object.entries(vars).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
    return { file: "docker", args: ["exec", "-u", mode.user, ...envFlags, mode.container, settings.scanner, ...scannerArgs], env: {} };
  }
  if (mode.kind === "sudo") {
    // env(1) would read a command containing "=" as one more assignment.
    if (settings.scanner.includes("="))
      throw new UserError(`PLEX_SCANNER contains "=", which env(1) cannot run through sudo: ${settings.scanner}`, 2);
    const assignments = Object.entries(vars).map(([k, v]) => `${k}=${v}`);
    // -n: a service has no terminal to type a password into, so sudo must fail instead of waiting.
    const sudoFlags = mode.nonInteractive ? ["-n", "-u", mode.user] : ["-u", mode.user];
    return { file: "sudo", args: [...sudoFlags, "env", ...assignments, settings.scanner, ...scannerArgs], env: {} };
  }
  return { file: settings.scanner, args: [...scannerArgs], env: vars };
}

function scannerEnv(settings: ScannerSettings): Record<string, string> {
  const vars: Record<string, string> = {};
  if (settings.ldLibraryPath !== "") vars.LD_LIBRARY_PATH = settings.ldLibraryPath;
  if (settings.supportDir !== "") vars.PLEX_MEDIA_SERVER_APPLICATION_SUPPORT_DIR = settings.supportDir;
  return vars;
}

function requireName(value: string, what: string): string {
  if (value.trim() === "") throw new UserError(`no ${what} is set`, 2);
  return value;
}

const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One word quoted the way a POSIX shell would read it back, for display only. */
export function quoteForReading(word: string): string {
  if (SAFE_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command as one readable line: `VAR='…' file 'arg' …`. Never executed. */
export function formatCommand(command: ScannerCommand): string {
  const assignments = Object.entries(command.env).map(([k, v]) => `${k}=${quoteForReading(v)}`);
  return [...assignments, quoteForReading(command.file), ...command.args.map(quoteForReading)].join(" ");
}
