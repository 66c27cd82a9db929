import { InterruptedError, UserError, type Library } from "../domain.js";
import { createServerMapper } from "../ingest/sources.js";
import { folderToScan, PathError } from "../paths/index.js";
import { checkSection, findSectionFor, parseSectionId } from "../targets/plex/find-section.js";
import { loadLibraries } from "../targets/plex/library-source.js";
import { buildScanCommand, formatCommand, resolveScannerSettings, type ScannerMode } from "../targets/plex-scanner/scanner-command.js";
import { runScanner } from "../targets/plex-scanner/scanner.js";
import { DEFAULT_SCANNER_TIMEOUT_MS } from "../targets/plex-scanner/scanner-target.js";
import type { CommandContext } from "./context.js";
import { paint, writeLine } from "./output.js";
import { messageOf } from "../lib/errors.js";
import { withoutConfigVariables } from "../config/env-overlay.js";

export interface ScanOptions {
  directory?: string;
  section?: string;
  /** `--docker [name]`: a name, true for DOCKER_NAME; `--no-docker`: false. */
  docker?: string | boolean;
  user?: string;
  sudo?: boolean;
  /** Seconds; 0 for no limit. */
  timeout?: string;
  dryRun?: boolean;
  list?: boolean;
}

/** `scanarr scan`: runs Plex Media Scanner on one folder now, bypassing the service. */
export async function run(options: ScanOptions, ctx: CommandContext): Promise<number> {
  if (options.list) return printLibraries(ctx);
  if (options.directory === undefined || options.directory === "") {
    throw new UserError("scan needs --directory <path> (or --list to see the libraries)", 2);
  }
  const section = options.section === undefined ? undefined : parseSectionId(options.section);
  const timeoutMs = parseTimeout(options.timeout);
  const settings = resolveScannerSettings(ctx.config, { docker: options.docker, sudo: options.sudo, user: options.user });
  const folder = toFolder(options.directory, ctx);
  const target = await chooseSection(folder, section, ctx);
  const command = buildScanCommand(settings, target.id, folder);
  if (options.dryRun) {
    writeLine(ctx.stdout, formatCommand(command));
    return 0;
  }
  const title = target.title === undefined ? "" : ` (${target.title})`;
  writeLine(ctx.stderr, `scanning ${folder} in section ${target.id}${title} ${describeMode(settings.mode)}`);
  const result = await runScanner(command, {
    env: withoutConfigVariables(ctx.env),
    timeoutMs,
    stdout: ctx.stdout,
    stderr: ctx.stderr,
    // Only sudo may need the terminal, to ask for a password.
    stdin: settings.mode.kind === "sudo" && isTerminal(ctx.stdin) ? "inherit" : "ignore",
    signal: ctx.signal,
    mode: settings.mode,
  });
  if (result.failure?.kind === "canceled") throw new InterruptedError(result.failure.message);
  if (result.failure) writeLine(ctx.stderr, paint(ctx.color).red(`error: ${result.failure.message}`));
  return result.exitCode;
}

function toFolder(directory: string, ctx: CommandContext): string {
  let serverPath: string;
  try {
    serverPath = createServerMapper(ctx.config).toServerPath(directory);
  } catch (error) {
    if (error instanceof PathError) throw new UserError(error.message, 2);
    throw error;
  }
  const folder = folderToScan(serverPath);
  if (folder !== serverPath.replace(/[\\/]+$/, "")) writeLine(ctx.stderr, `${serverPath} is a file: scanning its folder`);
  return folder;
}

async function chooseSection(folder: string, section: string | undefined, ctx: CommandContext): Promise<{ id: string; title?: string }> {
  if (section === undefined) return findSectionFor(folder, (await loadLibraries(ctx.config)).libraries);
  let libraries: Library[];
  try {
    libraries = (await loadLibraries(ctx.config)).libraries;
  } catch (error) {
    // An explicit --section must still work on a machine that can read neither the DB nor the API.
    const why = messageOf(error);
    writeLine(ctx.stderr, `warning: section ${section} not checked: ${why}`);
    return { id: section };
  }
  return checkSection(section, folder, libraries);
}

function parseTimeout(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_SCANNER_TIMEOUT_MS;
  const seconds = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(seconds) || seconds < 0) {
    throw new UserError(`--timeout must be a number of seconds (0 for no limit), got ${JSON.stringify(raw)}`, 2);
  }
  return Math.round(seconds * 1000);
}

async function printLibraries(ctx: CommandContext): Promise<number> {
  const { libraries, from } = await loadLibraries(ctx.config);
  writeLine(ctx.stderr, `libraries from the ${from === "database" ? "Plex database" : "Plex API"}:`);
  for (const line of formatLibraryTable(libraries)) writeLine(ctx.stdout, line);
  return 0;
}

/** Columns ID, TYPE, NAME, LOCATIONS; a library's further folders go on lines of their own. */
export function formatLibraryTable(libraries: readonly Library[]): string[] {
  const rows = libraries.map((l) => [l.id, l.type, l.title] as const);
  const width = (i: 0 | 1 | 2, head: string) => Math.max(head.length, ...rows.map((r) => r[i].length));
  const w = [width(0, "ID"), width(1, "TYPE"), width(2, "NAME")] as const;
  const cells = (a: string, b: string, c: string, d: string) => `${a.padEnd(w[0])}  ${b.padEnd(w[1])}  ${c.padEnd(w[2])}  ${d}`.trimEnd();
  const lines = [cells("ID", "TYPE", "NAME", "LOCATIONS")];
  for (const l of libraries) {
    const [first = "", ...rest] = l.locations;
    lines.push(cells(l.id, l.type, l.title, first));
    for (const location of rest) lines.push(cells("", "", "", location));
  }
  return lines;
}

function describeMode(mode: ScannerMode): string {
  if (mode.kind === "docker") return `inside container ${mode.container} as ${mode.user}`;
  if (mode.kind === "sudo") return `as ${mode.user} through sudo`;
  return "directly";
}

function isTerminal(stream: NodeJS.ReadableStream): boolean {
  return Boolean((stream as { isTTY?: boolean }).isTTY);
}
