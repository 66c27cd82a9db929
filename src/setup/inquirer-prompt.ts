import { checkbox, confirm, input, password, select } from "@inquirer/prompts";
import { InterruptedError } from "../domain.js";
import type { SetupPrompt } from "./prompt.js";

/**
 * The set-up's questions on a terminal, through @inquirer/prompts (one
 * line per answer, no multi-line pastes: docs/decisions.md). Ctrl-C, or the
 * command's signal, ends the set-up as interrupted with nothing written.
 */
export function createInquirerPrompt(stdin: NodeJS.ReadableStream, stdout: NodeJS.WritableStream, signal: AbortSignal): SetupPrompt {
  const context = { input: stdin, output: stdout, signal };
  const ask = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof Error && (error.name === "ExitPromptError" || error.name === "AbortPromptError")) {
        throw new InterruptedError("set-up interrupted; nothing was written");
      }
      throw error;
    }
  };
  return {
    select: (q) => ask(() => select({ message: q.message, choices: q.choices, default: q.default }, context)),
    checkbox: (q) => ask(() => checkbox({ message: q.message, choices: q.choices }, context)),
    confirm: (q) => ask(() => confirm({ message: q.message, default: q.default }, context)),
    input: (q) => ask(() => input({ message: q.message, default: q.default, validate: q.validate }, context)),
    password: (q) => ask(() => password({ message: q.message, mask: "*", validate: q.validate }, context)),
  };
}
