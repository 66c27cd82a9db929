import type { EnvSetting } from "../config/env-sources.js";
import type { Config } from "../config/types.js";
import type { TargetRuntime } from "../domain.js";
import type { InstallPaths } from "../lib/install-paths.js";
import type { ResolvedTarget } from "../paths/trace.js";

/** One line of the doctor's report. `detail` never holds a secret. */
export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

/**
 * A media server as the doctor sees it (the one contract, domain.ts): its
 * libraries, where it is and `checkAccess()` when it has more to prove, and
 * its path form.
 */
export type DoctorTarget = Pick<TargetRuntime, "target" | "toTargetPath">;

/** What the checks read; built once per run by the CLI (or the service at start-up). */
export interface DoctorContext {
  config: Config;
  paths: InstallPaths;
  /** The command's environment (RCLONE_CONFIG, RCLONE_CONFIG_PASS for CLOUD.RCLONE_REMOTE); none when absent. */
  env?: NodeJS.ProcessEnv;
  /** Config problems the loader did not enforce for this command (an empty PLEX_TOKEN, a missing SERVER_PASS). */
  unmet: readonly string[];
  /** The keys SCANARR_ variables set, over the file; none when absent. */
  fromEnv?: readonly EnvSetting[];
  targets: readonly DoctorTarget[];
  /** Bound of each look at a path or at rclone's remote control (default 5 s for paths, 10 s for rclone). */
  probeTimeoutMs?: number;
  /** Each target's libraries, read once and shared by the checks that need them. */
  libraries(): Promise<ResolvedTarget[]>;
}

/** One check: a name and a function from the context to one or more result lines. */
export interface DoctorCheck {
  name: string;
  run(ctx: DoctorContext): Promise<CheckResult[]>;
}
