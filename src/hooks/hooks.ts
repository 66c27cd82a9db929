import type { Clock } from "../lib/clock.js";
import { toHookCommand, type HookCommand, type HookSetting } from "./hook-command.js";
import { hookEnvironment, type HookFacts, type HookStage } from "./hook-env.js";
import { runHook, type HookResult } from "./run-hook.js";

export type { HookFacts, HookStage } from "./hook-env.js";
export type { HookResult } from "./run-hook.js";
export type { HookSetting } from "./hook-command.js";

/** RUN_COMMAND_BEFORE_SCAN, RUN_COMMAND_AFTER_SCAN and RUN_COMMAND_TIMEOUT (seconds). */
export interface HookSettings {
  RUN_COMMAND_BEFORE_SCAN: HookSetting;
  RUN_COMMAND_AFTER_SCAN: HookSetting;
  RUN_COMMAND_TIMEOUT: number;
}

export interface Hooks {
  /** Runs the before-scan hook; undefined when none is configured. The scan goes on whatever it returns. */
  before(facts: HookFacts): Promise<HookRun | undefined>;
  /** Runs the after-scan hook (after confirmation, analyze and empty trash); undefined when none is configured. */
  after(facts: HookFacts): Promise<HookRun | undefined>;
}

/** A finished hook run and the command, as the log names it. */
export interface HookRun extends HookResult {
  stage: HookStage;
  command: string;
}

/**
 * The configured hooks; `env` is the environment they start from (the
 * service's PATH, HOME…), `signal` stops running hooks at shutdown.
 */
export function createHooks(settings: HookSettings, deps: { env: NodeJS.ProcessEnv; clock?: Clock; signal?: AbortSignal }): Hooks {
  const commands: Record<HookStage, HookCommand | undefined> = {
    before: toHookCommand(settings.RUN_COMMAND_BEFORE_SCAN),
    after: toHookCommand(settings.RUN_COMMAND_AFTER_SCAN),
  };
  const run = async (stage: HookStage, facts: HookFacts): Promise<HookRun | undefined> => {
    const command = commands[stage];
    if (!command) return undefined;
    const result = await runHook(command, {
      baseEnv: deps.env,
      env: hookEnvironment(stage, facts),
      timeoutMs: settings.RUN_COMMAND_TIMEOUT * 1000,
      ...(deps.clock ? { clock: deps.clock } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
    return { ...result, stage, command: command.display };
  };
  return { before: (facts) => run("before", facts), after: (facts) => run("after", facts) };
}
