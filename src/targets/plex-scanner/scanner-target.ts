import { access, constants } from "node:fs/promises";
import { Writable } from "node:stream";
import { TargetAuthError, TargetFatalError, TargetUnavailableError, type Library, type Target } from "../../domain.js";
import type { Logger } from "../../lib/logger.js";
import { openPlexLibraryDb } from "../plex/library-db.js";
import { buildScanCommand, resolveScannerSettings, type ScannerKeys, type ScannerSettings } from "./scanner-command.js";
import { runScanner, type ScannerRun } from "./scanner.js";
import { messageOf } from "../../lib/errors.js";

/** One hour: a scanner run on a large season folder over a cloud mount can be slow. */
export const DEFAULT_SCANNER_TIMEOUT_MS = 60 * 60 * 1000;

export interface ScannerTargetOptions {
  /** Shown in logs and the API; "plex-scanner" by default. */
  name?: string;
  settings: ScannerSettings;
  databasePath: string;
  /** The environment the scanner starts from (PATH included). */
  env: NodeJS.ProcessEnv;
  logger: Logger;
  timeoutMs?: number;
  /** Aborting it stops a running scan (service shutdown). */
  signal?: AbortSignal;
  openDb?: typeof openPlexLibraryDb;
}

/**
 * The Target of a Plex entry with the scanner method: runs Plex Media Scanner, one run
 * at a time because Plex's scanner is not meant to run concurrently, and
 * reads libraries from the read-only Plex database.
 */
export function createScannerTarget(options: ScannerTargetOptions): Target {
  const openDb = options.openDb ?? openPlexLibraryDb;
  let queue: Promise<unknown> = Promise.resolve();

  async function runOne(folder: string, library: Library): Promise<void> {
    const command = buildScanCommand(options.settings, library.id, folder);
    const output = createLineLogger(options.logger, { section: library.id, folder });
    options.logger.info({ section: library.id, folder }, "running Plex Media Scanner");
    const run = await runScanner(command, {
      env: options.env,
      timeoutMs: options.timeoutMs ?? DEFAULT_SCANNER_TIMEOUT_MS,
      stdout: output.stream,
      stderr: output.stream,
      stdin: "ignore",
      mode: options.settings.mode,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const error = errorForRun(run, output.lastLines());
    if (error) throw error;
  }

  const { mode, scanner } = options.settings;
  return {
    maxInFlight: 1,
    name: options.name ?? "plex-scanner",
    // Plex's scanner takes one section per run, so a folder in two libraries gets two runs.
    scansPerLibrary: true,
    confirms: true,
    where: mode.kind === "docker" ? `Plex Media Scanner in container ${mode.container}` : scanner,
    async checkAccess() {
      if (mode.kind === "docker") return `the scanner runs inside container ${mode.container} (not checked from here)`;
      await access(scanner, constants.X_OK).catch(() => {
        throw new Error(`PLEX_SCANNER ${scanner} is not an executable file on this machine`);
      });
      return "Plex Media Scanner is executable";
    },
    async listLibraries() {
      try {
        const db = openDb(options.databasePath);
        try {
          return db.listLibraries();
        } finally {
          db.close();
        }
      } catch (error) {
        throw new TargetUnavailableError(messageOf(error));
      }
    },
    scan(folder, library) {
      const next = queue.then(() => runOne(folder, library));
      // The chain must survive a failed scan, or every later scan would fail with it.
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

/** Builds the target of a Plex entry from the scanner's own keys, with sudo never waiting for a password. */
export function createScannerTargetFromConfig(
  config: ScannerKeys,
  entry: { NAME: string; DATABASE_PATH: string },
  deps: Omit<ScannerTargetOptions, "settings" | "databasePath" | "name">,
): Target {
  const settings = resolveScannerSettings(config, {}, true);
  return createScannerTarget({ ...deps, name: entry.NAME, settings, databasePath: entry.DATABASE_PATH });
}

// Which failures are worth retrying: a container being recreated, a slow or
// locked library, a stopped run may succeed later; a missing executable or
// user will not until someone fixes the config; sudo or Docker refusing us
// needs a person, like a bad token.
function errorForRun(run: ScannerRun, lastLines: string[]): Error | undefined {
  if (!run.failure) return undefined;
  const detail = lastLines.length ? ` (last output: ${lastLines.join(" | ")})` : "";
  const message = run.failure.message + detail;
  switch (run.failure.kind) {
    case "missing-executable":
    case "missing-user":
      return new TargetFatalError(message);
    case "not-permitted":
      return new TargetAuthError(message);
    default:
      return new TargetUnavailableError(message);
  }
}

const KEEP_LINES = 5;

function createLineLogger(logger: Logger, fields: Record<string, string>): { stream: Writable; lastLines: () => string[] } {
  const lines: string[] = [];
  let pending = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const parts = (pending + chunk.toString("utf8")).split(/\r?\n/);
      pending = parts.pop() ?? "";
      for (const line of parts) record(line);
      done();
    },
    final(done) {
      record(pending);
      done();
    },
  });
  function record(line: string): void {
    if (line.trim() === "") return;
    logger.debug({ ...fields, line }, "scanner output");
    lines.push(line);
    if (lines.length > KEEP_LINES) lines.shift();
  }
  return { stream, lastLines: () => [...lines, ...(pending.trim() ? [pending] : [])].slice(-KEEP_LINES) };
}
