import type { ConfigSources } from "../config/env-sources.js";
import type { Config } from "../config/types.js";
import type { InstallPaths } from "../lib/install-paths.js";
import type { Logger } from "../lib/logger.js";

/** What every command receives from the CLI shell: loaded config, paths, I/O. */
export interface CommandContext {
  /** The loaded config: the flat PLEX_* keys are a TARGETS entry (config/plex-entry.ts). */
  config: Config;
  /** The file's keys as written (with the defaults), for `config show`; `config` when absent. */
  written?: Config;
  paths: InstallPaths;
  logger: Logger;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Whether stdout may carry colour (false with --no-color or NO_COLOR). */
  color: boolean;
  env: NodeJS.ProcessEnv;
  /** Aborted on SIGINT/SIGTERM; long-running commands stop when it fires. */
  signal: AbortSignal;
  /** Where interactive commands read typed lines from. */
  stdin: NodeJS.ReadableStream;
  /** Config problems this command did not need solved (a missing SERVER_PASS, an empty PLEX_TOKEN); doctor reports them. */
  unmet?: string[];
  /** Which values the config file and the SCANARR_ variables set; absent where the config was built in code. */
  configSources?: ConfigSources;
  /** The directory scanarr was started in, for hints that repeat the command. */
  cwd?: string;
  /** The script node ran (process.argv[1]), for hints that name the program (scanarrProgram). */
  script?: string;
}
