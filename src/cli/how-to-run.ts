import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { InstallPaths } from "../lib/install-paths.js";
import { quote, scanarrCommand } from "./command-line.js";

/**
 * The command that runs scanarr from where the user is, for next-step
 * hints: `scanarr` when it is on PATH, `npx scanarr` in a project that
 * installed it, else this checkout's `bin/scanarr.js` by its relative path;
 * followed by the flags that reach the same files.
 */
export function runnableScanarr(paths: InstallPaths, cwd: string, env: NodeJS.ProcessEnv): string {
  return scanarrCommand(paths, cwd).replace(/^scanarr/, executable(cwd, env.PATH ?? ""));
}

function executable(cwd: string, searchPath: string): string {
  const onPath = searchPath.split(path.delimiter).some((dir) => dir !== "" && existsSync(path.join(dir, "scanarr")));
  if (onPath) return "scanarr";
  const root = fileURLToPath(new URL("../../", import.meta.url));
  if (root.split(path.sep).includes("node_modules")) return "npx scanarr";
  const relative = path.relative(cwd, path.join(root, "bin", "scanarr.js"));
  return quote(relative.startsWith(".") || path.isAbsolute(relative) ? relative : `./${relative}`);
}
