import { isPlainObject } from "./validate.js";

/** One key set from the environment: its dotted path (`TARGETS[0].TOKEN`) and the variable. */
export interface EnvSetting {
  path: string;
  variable: string;
}

/** Where each value came from: `file`, `env SCANARR_X` (or `env SCANARR_X_FILE`); a path absent here is a default. */
export interface ConfigSources {
  settings: readonly EnvSetting[];
  /** Every leaf of the file and the environment by dotted path (an empty list or object is a leaf). */
  leaves: Readonly<Record<string, string>>;
}

/** Each leaf of the overlaid config by dotted path: `file`, or `env <the variable that set it or a parent>`. */
export function leafSources(config: Record<string, unknown>, settings: readonly EnvSetting[]): Record<string, string> {
  const leaves: Record<string, string> = {};
  const walk = (value: unknown, path: string): void => {
    const children = Array.isArray(value)
      ? value.map((child, i) => [`${path}[${i}]`, child] as const)
      : isPlainObject(value)
        ? Object.entries(value).map(([key, child]) => [path ? `${path}.${key}` : key, child] as const)
        : [];
    if (children.length === 0 && path !== "") leaves[path] = originOf(path, settings);
    for (const [childPath, child] of children) walk(child, childPath);
  };
  walk(config, "");
  return leaves;
}

/** The variable that set `path` or a parent of it (the deepest), else the file. */
function originOf(path: string, settings: readonly EnvSetting[]): string {
  let best: EnvSetting | undefined;
  for (const setting of settings) {
    if (isWithin(path, setting.path) && (!best || setting.path.length > best.path.length)) best = setting;
  }
  return best ? `env ${best.variable}` : "file";
}

/** Whether `path` is `parent` or below it (`TARGETS[0].TOKEN` is within `TARGETS` and `TARGETS[0]`). */
export function isWithin(path: string, parent: string): boolean {
  return path === parent || (path.startsWith(parent) && (path[parent.length] === "." || path[parent.length] === "["));
}

/** A problem about a key set from the environment, with the variable named: `SERVER_PORT: … (from SCANARR_SERVER_PORT)`. */
export function withVariable(problem: string, settings: readonly EnvSetting[]): string {
  const key = /^[^:\s]+/.exec(problem)?.[0] ?? "";
  const setting = settings.filter((s) => isWithin(key, s.path)).sort((a, b) => b.path.length - a.path.length)[0];
  if (setting) return `${problem} (from ${setting.variable})`;
  // A field missing from a list entry a variable set another field of (an entry SCANARR_TARGETS__1__TOKEN added).
  const entry = /^(.*\[\d+\])\./.exec(key)?.[1];
  const sibling = entry === undefined ? undefined : settings.find((s) => isWithin(s.path, entry));
  return sibling && entry ? `${problem} (${entry} has a field from ${sibling.variable})` : problem;
}
