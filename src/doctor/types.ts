import type { Config } from "../config/types.js";
import type { InstallPaths } from "../lib/install-paths.js";
import type { ResolvedTarget, TraceTarget } from "../paths/trace.js";

/** One line of the doctor's report. `detail` never holds a secret. */
export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

/** A media server as the doctor sees it: libraries and path form (TraceTarget), plus an access probe. */
export interface DoctorTarget extends TraceTarget {
  /** Where it is, for messages (no credentials). */
  readonly where: string;
  /**
   * Proves the credentials may scan (an admin-only call for Plex); resolves
   * with what was proven, throws a Target*Error otherwise. Absent when the
   * target has no credentials to prove.
   */
  checkAccess?(): Promise<string>;
}

/** What the checks read; built once per run by the CLI (or the service at start-up). */
export interface DoctorContext {
  config: Config;
  paths: InstallPaths;
  /** Config problems the loader did not enforce for this command (an empty PLEX_TOKEN, a missing SERVER_PASS). */
  unmet: readonly string[];
  targets: readonly DoctorTarget[];
  /** Each target's libraries, read once and shared by the checks that need them. */
  libraries(): Promise<ResolvedTarget[]>;
}

/** One check: a name and a function from the context to one or more result lines. */
export interface DoctorCheck {
  name: string;
  run(ctx: DoctorContext): Promise<CheckResult[]>;
}
