import path from "node:path";
import type { InstallPaths } from "../lib/install-paths.js";

/**
 * How to call scanarr again on the same files, for hints printed to the
 * user: plain `scanarr` in the install dir, else with --install-dir or --config.
 */
export function scanarrCommand(paths: InstallPaths, cwd: string): string {
  const defaultFile = path.join(paths.installDir, "config", "config.json");
  if (paths.configFile !== defaultFile) return `scanarr --config ${quote(paths.configFile)}`;
  if (path.resolve(cwd) === paths.installDir) return "scanarr";
  return `scanarr --install-dir ${quote(paths.installDir)}`;
}

/** Quotes for a POSIX shell when the path needs it, so the hint can be pasted. */
export function quote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}
