import { isPlainObject, type ValidationReport } from "./validate.js";

/** Keys holding file paths that plex_autoscan wrote shell-escaped (`Plex\ Media\ Scanner`). */
const SHELL_ESCAPED_PATHS = ["PLEX_SCANNER", "PLEX_SUPPORT_DIR", "PLEX_LD_LIBRARY_PATH", "PLEX_DATABASE_PATH"];

/**
 * Brings a plex_autoscan file into scanarr's shape before validation: the
 * GOOGLE section is read as CLOUD, and shell escapes in POSIX paths are
 * removed because scanarr never passes paths through a shell.
 */
export function normalizeRaw(raw: Record<string, unknown>, report: ValidationReport): Record<string, unknown> {
  const out = stripComments(raw);
  if ("GOOGLE" in out) {
    if ("CLOUD" in out) {
      report.problems.push("GOOGLE: both GOOGLE (plex_autoscan's name) and CLOUD are present; keep only CLOUD");
    } else {
      report.warnings.push("GOOGLE: read as CLOUD (plex_autoscan's section was renamed); rename it to CLOUD to silence this warning");
      out.CLOUD = out.GOOGLE;
    }
    delete out.GOOGLE;
  }
  for (const key of SHELL_ESCAPED_PATHS) {
    const value = out[key];
    if (typeof value === "string" && value.startsWith("/") && value.includes("\\")) {
      out[key] = value.replace(/\\(.)/g, "$1");
    }
  }
  return out;
}

/**
 * JSON has no comments, so scanarr ignores every key that starts with "_"
 * (`"_comment": "..."`), at any depth; `scanarr init` writes its notes that way.
 */
export function stripComments(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key.startsWith("_")) continue;
    out[key] = isPlainObject(child) ? stripComments(child) : child;
  }
  return out;
}

/** Deep merge of `value` over `defaults`: objects merge key by key, anything else replaces. */
export function mergeDefaults<T>(defaults: T, value: unknown): T {
  if (!isPlainObject(defaults) || !isPlainObject(value)) return (value === undefined ? defaults : value) as T;
  const out: Record<string, unknown> = { ...defaults };
  for (const [key, child] of Object.entries(value)) {
    const base = (defaults as Record<string, unknown>)[key];
    // Free-form maps (path mappings, priorities) are replaced whole, never merged with examples.
    out[key] = isPlainObject(base) && isPlainObject(child) && !isFreeForm(key) ? mergeDefaults(base, child) : child;
  }
  return out as T;
}

function isFreeForm(key: string): boolean {
  return key === "SERVER_PATH_MAPPINGS" || key === "SERVER_SCAN_PRIORITIES" || key === "SOURCES";
}
