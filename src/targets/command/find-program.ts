import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { TargetUnavailableError } from "../../domain.js";

/**
 * Where `program` would be run from, as execve finds it: a path with a slash
 * as written, a bare name through the PATH of `env`. Throws a
 * TargetFatalError when it is missing or not executable by this user.
 */
export async function findProgram(program: string, env: NodeJS.ProcessEnv): Promise<string> {
  const candidates = program.includes("/")
    ? [program]
    : (env.PATH ?? "")
        .split(delimiter)
        .filter((dir) => dir !== "")
        .map((dir) => join(dir, program));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here, or not executable; the next PATH entry may hold it.
    }
  }
  const where = program.includes("/") ? "" : " in the PATH scanarr runs with";
  throw new TargetUnavailableError(`the program ${program} was not found${where}, or this user may not run it`);
}
