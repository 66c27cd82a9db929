import { accessSync, constants, realpathSync } from "node:fs";
import path from "node:path";
import type { InstallPaths } from "../lib/install-paths.js";
import type { CommandContext } from "./context.js";

/**
 * How to call scanarr again on the same files, for hints printed to the
 * user: `program` (see scanarrProgram) alone in the install dir (or where
 * SCANARR_INSTALL_DIR names it, as in the container), else with
 * --install-dir or --config.
 */
export function scanarrCommand(paths: InstallPaths, cwd: string, program = "scanarr", env: NodeJS.ProcessEnv = {}): string {
  const defaultFile = path.join(paths.installDir, "config", "config.json");
  if (paths.configFile !== defaultFile) return `${program} --config ${quote(paths.configFile)}`;
  const envDir = env.SCANARR_INSTALL_DIR;
  const found = envDir ? path.resolve(cwd, envDir) : path.resolve(cwd);
  if (found === paths.installDir) return program;
  return `${program} --install-dir ${quote(paths.installDir)}`;
}

/**
 * The command a printed next step should start with: the program that works
 * from where the user is (scanarrProgram) plus --install-dir or --config when
 * needed (scanarrCommand). `scanarr init` uses it, and so should every
 * command that tells the user what to run next.
 */
export function nextStepCommand(ctx: Pick<CommandContext, "paths" | "cwd" | "script" | "env">): string {
  const cwd = ctx.cwd ?? process.cwd();
  return scanarrCommand(ctx.paths, cwd, scanarrProgram({ script: ctx.script, env: ctx.env, cwd }), ctx.env);
}

/** How this scanarr was started, as main.ts saw it. */
export interface Invocation {
  /** The script node ran (process.argv[1]); undefined when unknown (tests calling main()). */
  script?: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * The program name a next-steps hint should use so it works from where the
 * user is: `npx scanarr` when run through npx (or nothing better is known),
 * `scanarr` when that name on PATH is this very script, else the script's
 * path, relative when it is below the current directory (`./bin/scanarr.js`
 * in a checkout). `init` and `setup` print their next steps with it.
 */
export function scanarrProgram(invocation: Invocation): string {
  const { script, env, cwd } = invocation;
  if (env.npm_command === "exec" || env.npm_lifecycle_event === "npx") return "npx scanarr";
  const onPath = findOnPath("scanarr", env.PATH ?? "");
  if (onPath !== undefined && (script === undefined || sameFile(onPath, script))) return "scanarr";
  if (script === undefined || !/(?:^|[\\/])scanarr(?:\.js)?$/.test(script)) return "npx scanarr";
  const relative = path.relative(cwd, script);
  if (relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative)) return quote(`./${relative}`);
  return quote(path.resolve(cwd, script));
}

function findOnPath(name: string, pathVariable: string): string | undefined {
  for (const dir of pathVariable.split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here (or not executable): the next PATH entry.
    }
  }
  return undefined;
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/** Quotes for a POSIX shell when the path needs it, so the hint can be pasted. */
export function quote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}
