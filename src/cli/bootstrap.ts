import { defaultConfig } from "../config/defaults.js";
import { ConfigError, loadConfig } from "../config/load.js";
import { resolveInstallPaths } from "../lib/install-paths.js";
import { createLogger, type LogFormat, type LogLevel } from "../lib/logger.js";
import type { CommandContext } from "./context.js";
import { paint, shouldUseColor, writeLine } from "./output.js";

/** The global options every command shares. */
export interface GlobalOptions {
  installDir?: string;
  config?: string;
  logLevel: LogLevel;
  logFormat: LogFormat;
  color?: boolean;
}

export interface IO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  signal: AbortSignal;
}

/**
 * Loads the shared config (writing the default file on first run and saying
 * so) and builds what a command needs. Throws ConfigError for a bad file.
 * A command that writes the config itself (`import`) gets the defaults and
 * no file is touched.
 */
export async function createContext(globals: GlobalOptions, io: IO, options: { loadConfig?: boolean } = {}): Promise<CommandContext> {
  const paths = resolveInstallPaths(globals.installDir ?? io.env.SCANARR_INSTALL_DIR ?? io.cwd, globals.config);
  const color = shouldUseColor(globals.color, io.env, io.stdout);
  const errColor = shouldUseColor(globals.color, io.env, io.stderr);
  const c = paint(errColor);
  const loaded =
    options.loadConfig === false
      ? { config: defaultConfig(""), file: paths.configFile, created: false, warnings: [] }
      : await loadConfig(paths.configFile);
  if (loaded.created) {
    writeLine(
      io.stderr,
      c.green(
        `Wrote a default config to ${loaded.file} (mode 0600; it holds SERVER_PASS). Edit it to match your setup; this run goes on with the defaults.`,
      ),
    );
  }
  for (const warning of loaded.warnings) writeLine(io.stderr, c.yellow(`warning: ${warning}`));
  const logger = createLogger({ level: globals.logLevel, format: globals.logFormat, color: errColor, destination: io.stderr });
  return {
    config: loaded.config,
    paths,
    logger,
    stdout: io.stdout,
    stderr: io.stderr,
    stdin: io.stdin,
    color,
    env: io.env,
    signal: io.signal,
  };
}

export { ConfigError };
