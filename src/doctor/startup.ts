import type { Config } from "../config/types.js";
import type { InstallPaths } from "../lib/install-paths.js";
import type { Logger } from "../lib/logger.js";
import { STARTUP_CHECKS } from "./checks.js";
import { memoLibraries, runChecks } from "./run.js";
import type { CheckResult, DoctorCheck, DoctorTarget } from "./types.js";
import { messageOf } from "../lib/errors.js";

export interface StartupDoctorInput {
  config: Config;
  paths: InstallPaths;
  logger: Logger;
  /** The targets to check: the ones serve delivers to. */
  targets: readonly DoctorTarget[];
  checks?: readonly DoctorCheck[];
}

/**
 * The doctor's short form for `serve` start-up: each failing check is logged
 * as a warning (passing ones at debug). It never throws and never delays the
 * start: call it without awaiting, after the service listens.
 */
export async function runStartupDoctor(input: StartupDoctorInput): Promise<CheckResult[]> {
  try {
    const { targets } = input;
    const results = await runChecks(input.checks ?? STARTUP_CHECKS, {
      config: input.config,
      paths: input.paths,
      unmet: [],
      targets,
      libraries: memoLibraries(targets),
    });
    for (const result of results) {
      if (result.ok) input.logger.debug({ check: result.name }, result.detail);
      else input.logger.warn({ check: result.name }, `${result.detail} (scanarr doctor checks the whole set-up)`);
    }
    return results;
  } catch (error) {
    input.logger.warn({ err: messageOf(error) }, "start-up checks could not run");
    return [];
  }
}
