import { int, opt, strs } from "../../config/spec-builders.js";
import { type EntryOf, defineTargetKind } from "../../config/target-kind.js";
import { commandTemplateProblems } from "../../hooks/arg-template.js";

const commandFields = {
  COMMAND: opt(strs(undefined, "the program and its arguments, with {folder} and {file} placeholders")),
  TIMEOUT: opt(int(undefined, "seconds the program may run before it is stopped and the scan retried (60 when unset)", { min: 1 })),
} as const;

/** A TARGETS entry of TYPE "command", its own fields typed. */
export type CommandEntry = EntryOf<typeof commandFields>;

/** A command entry runs a program: the program and its arguments ({folder}, {file}), and its time limit in seconds; no URL or credentials. */
export const commandConfig = defineTargetKind({
  fields: commandFields,
  check: (entry, at) => {
    const problems: string[] = [];
    for (const key of ["URL", "TOKEN", "USERNAME", "PASSWORD"] as const) {
      if (entry[key] !== "") problems.push(`${at}.${key}: not used by TYPE "command" (it runs COMMAND)`);
    }
    if (entry.COMMAND === undefined) problems.push(`${at}.COMMAND: must be set for TYPE "command" (the program, then its arguments)`);
    else problems.push(...commandTemplateProblems(entry.COMMAND).map((problem) => `${at}.COMMAND${problem}`));
    return problems;
  },
});
