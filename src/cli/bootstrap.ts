import { defaultConfig } from "../config/defaults.js";
import { withPlexEntry } from "../config/plex-entry.js";
import { secretLogPaths } from "../config/secrets.js";
import { ConfigError, ConfigMissingError, loadConfig, parseConfigText, type ConfigRequirement, type LoadedConfig } from "../config/load.js";
import { nextStepCommand } from "./command-line.js";
import { resolveInstallPaths } from "../lib/install-paths.js";
import { TARGET_CONFIGS } from "../targets/registry.js";
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
  /** The script node ran (process.argv[1]); absent when main() is called from code. */
  script?: string;
}

/**
 * How a command uses the config file. `file`: "create" writes the default
 * file when the default path has none (only `serve`); "required" makes a
 * missing file an error; "optional" runs on the defaults without writing;
 * "none" does not read it (`init`). A `--config` naming a missing file is an
 * error for every command but `init`. `require` lists what the command needs
 * beyond a well-formed file; the other requirements come back in ctx.unmet.
 */
export interface ConfigUse {
  file: "create" | "required" | "optional" | "none";
  require?: readonly ConfigRequirement[];
}

/** Loads the shared config as `use` says and builds what a command needs. Throws ConfigError for a bad or missing file. */
export async function createContext(globals: GlobalOptions, io: IO, use: ConfigUse = { file: "required" }): Promise<CommandContext> {
  const paths = resolveInstallPaths(globals.installDir ?? io.env.SCANARR_INSTALL_DIR ?? io.cwd, globals.config);
  const color = shouldUseColor(globals.color, io.env, io.stdout);
  const errColor = shouldUseColor(globals.color, io.env, io.stderr);
  const c = paint(errColor);
  const loaded = await load(paths.configFile, globals.config !== undefined, use, io.env);
  if (loaded.created) {
    writeLine(
      io.stderr,
      c.green(
        `Wrote a default config to ${loaded.file} (mode 0600; it holds SERVER_PASS). This run goes on with the defaults; \`${nextStepCommand({ paths, cwd: io.cwd, script: io.script, env: io.env })} setup\` finishes the set-up (signs in to Plex, connects the *arr apps), or edit the file.`,
      ),
    );
  }
  for (const warning of loaded.warnings) writeLine(io.stderr, c.yellow(`warning: ${warning}`));
  const logger = createLogger({
    level: globals.logLevel,
    format: globals.logFormat,
    color: errColor,
    destination: io.stderr,
    redact: secretLogPaths(),
  });
  io.signal.addEventListener(
    "abort",
    () =>
      logger.info({ signal: String(io.signal.reason) }, `received ${String(io.signal.reason)}, stopping (send it again to stop at once)`),
    { once: true },
  );
  return {
    config: loaded.config,
    written: loaded.written,
    paths,
    logger,
    stdout: io.stdout,
    stderr: io.stderr,
    stdin: io.stdin,
    color,
    env: io.env,
    signal: io.signal,
    unmet: loaded.unmet,
    configSources: loaded.sources,
    cwd: io.cwd,
    script: io.script,
  };
}

async function load(file: string, explicit: boolean, use: ConfigUse, env: NodeJS.ProcessEnv): Promise<LoadedConfig> {
  const require = use.require ?? [];
  if (use.file === "none") {
    const written = defaultConfig("");
    return {
      config: withPlexEntry(written),
      written,
      file,
      created: false,
      warnings: [],
      unmet: [],
      sources: { settings: [], leaves: {} },
    };
  }
  try {
    // Only the default path is ever created: a --config typo must not become a fresh config.
    return await loadConfig(file, TARGET_CONFIGS, { create: use.file === "create" && !explicit, require, env });
  } catch (error) {
    if (!(error instanceof ConfigMissingError)) throw error;
    if (explicit) throw new ConfigMissingError(file, "check the path given with --config (or run `scanarr --config <file> init`)");
    // No file: the defaults, with the environment's values over them.
    if (use.file === "optional") return parseConfigText("{}", TARGET_CONFIGS, file, require, env);
    throw error;
  }
}

export { ConfigError };
