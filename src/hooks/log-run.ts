import type { HookRun } from "./hooks.js";
import type { Logger } from "../lib/logger.js";

/** Exit status and the last lines of a hook run, as the log shows them; a failed hook is a warning, never an error. */
export function logHookRun(logger: Logger, run: HookRun, folder: string): void {
  const fields = {
    hook: run.stage,
    command: run.command,
    folder,
    exitCode: run.exitCode,
    ...(run.signal ? { signal: run.signal } : {}),
    durationMs: run.durationMs,
    lastLines: run.lastLines,
    ...(run.error ? { error: run.error } : {}),
  };
  if (run.ok) logger.info(fields, `${run.stage}-scan hook ran`);
  else logger.warn(fields, run.timedOut ? `${run.stage}-scan hook timed out` : `${run.stage}-scan hook failed`);
}
