import { TargetFatalError, TargetUnavailableError, type Library } from "../../domain.js";
import { expandArgTemplate } from "../../hooks/arg-template.js";
import { runHook, type HookResult } from "../../hooks/run-hook.js";
import type { Clock } from "../../lib/clock.js";
import { CachedTarget } from "../cached-target.js";
import { CATCH_ALL_LIBRARY } from "../catch-all.js";
import type { TargetFactory } from "../factory.js";
import type { CommandEntry } from "./config.js";
import type { LibraryCacheTuning } from "../library-cache.js";
import { findProgram } from "./find-program.js";

/** Seconds a command may run when TIMEOUT is unset. */
export const DEFAULT_COMMAND_TIMEOUT_S = 60;

export interface CommandTargetOptions extends LibraryCacheTuning {
  name: string;
  /** The program, then its arguments with `{folder}` and `{file}` (hooks/arg-template.ts). */
  template: readonly string[];
  timeoutMs: number;
  /** The config key of the time limit, for messages (`TARGETS[3].TIMEOUT`). */
  timeoutKey: string;
  /** The environment the program starts from (the service's PATH, HOME…). */
  env: NodeJS.ProcessEnv;
  /** Aborting it (service shutdown) stops a running program; the scan is retried after the restart. */
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL after the time limit (5 s by default). */
  killGraceMs?: number;
  clock?: Clock;
}

/**
 * Runs a program for each scan, with the folder and the named files as
 * arguments: an argv, never a shell string, in a process group of its own
 * that is stopped when the time limit passes. Its exit is the delivery's
 * outcome: 0 done, another code failed (the last lines of its stderr in the
 * error), a time-out or a shutdown retried.
 */
export class CommandTarget extends CachedTarget {
  /** One run covers the folder, whatever library holds it. */
  readonly scansPerLibrary = false;
  readonly where: string;
  private readonly options: CommandTargetOptions;

  constructor(options: CommandTargetOptions) {
    // The program decides for itself what a folder is to it: every folder is taken. Listing that
    // library looks for the program, so /health tells whether it can run.
    const check = async (): Promise<Library[]> => {
      await findProgram(options.template[0] ?? "", options.env);
      return [CATCH_ALL_LIBRARY];
    };
    super(options.name, options, check, [CATCH_ALL_LIBRARY]);
    this.options = options;
    this.where = options.template[0] ?? "";
  }

  async scan(folder: string, _library: Library, files: readonly string[] = []): Promise<void> {
    const { file, args } = expandArgTemplate(this.options.template, folder, files);
    const run = await this.recorded(async () => {
      const result = await runHook(
        { file, args, display: file },
        {
          baseEnv: this.options.env,
          env: {},
          timeoutMs: this.options.timeoutMs,
          timeoutKey: this.options.timeoutKey,
          ...(this.options.killGraceMs !== undefined ? { killGraceMs: this.options.killGraceMs } : {}),
          ...(this.options.clock ? { clock: this.options.clock } : {}),
          ...(this.options.signal ? { signal: this.options.signal } : {}),
        },
      );
      const failure = errorForRun(file, result);
      if (failure) throw failure;
      return result;
    });
    this.logger?.debug({ target: this.name, folder, files: files.length, durationMs: run.durationMs }, "command ran");
  }

  /** For doctor: the program exists and this user may run it (nothing is run). */
  async checkAccess(): Promise<string> {
    const found = await findProgram(this.where, this.options.env);
    return `${found} is executable`;
  }
}

/** A run's end as a delivery outcome: a time-out or a shutdown is retried, anything else but exit 0 fails. */
function errorForRun(program: string, run: HookResult): Error | undefined {
  if (run.ended === "ok") return undefined;
  const said = run.stderrLines.length > 0 ? `; stderr: ${run.stderrLines.join(" | ")}` : "";
  const message = `${program} ${run.error ?? "failed"}${said}`;
  if (run.ended === "time-out" || run.ended === "shutdown" || run.ended === "signal") return new TargetUnavailableError(message);
  return new TargetFatalError(message);
}

/** A TARGETS entry of TYPE "command": COMMAND (checked by the config rules) and TIMEOUT in seconds. */
export const createCommandTarget: TargetFactory = ({ entry, at }, { clock, logger, env, signal }) => {
  const own = entry as CommandEntry;
  return new CommandTarget({
    name: entry.NAME,
    template: own.COMMAND ?? [],
    timeoutMs: (own.TIMEOUT ?? DEFAULT_COMMAND_TIMEOUT_S) * 1000,
    timeoutKey: `${at}.TIMEOUT`,
    env: env ?? {},
    signal,
    clock,
    logger,
  });
};
