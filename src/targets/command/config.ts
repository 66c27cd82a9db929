import type { TargetKindConfig } from "../../config/target-kind.js";
import { commandTemplateProblems } from "../../hooks/arg-template.js";

/** A command entry runs a program: the program and its arguments ({folder}, {file}), and its time limit in seconds; no URL or credentials. */
export const commandConfig: TargetKindConfig = {
  fields: { COMMAND: { kind: "strings" }, TIMEOUT: { kind: "integer", min: 1 } },
  check: (entry, at) => {
    const problems: string[] = [];
    for (const key of ["URL", "TOKEN", "USERNAME", "PASSWORD"] as const) {
      if (entry[key] !== "") problems.push(`${at}.${key}: not used by TYPE "command" (it runs COMMAND)`);
    }
    if (entry.COMMAND === undefined) problems.push(`${at}.COMMAND: must be set for TYPE "command" (the program, then its arguments)`);
    else problems.push(...commandTemplateProblems(entry.COMMAND).map((problem) => `${at}.COMMAND${problem}`));
    return problems;
  },
};
