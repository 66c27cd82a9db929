import { compilePattern } from "../paths/go-regexp.js";
import { PatternError, rewriteProblems, type RewriteList } from "../paths/rewrite.js";
import type { Config } from "./types.js";
import { childPath } from "./validate.js";

/** The sources every config has; TRIGGERS names and `a-train/<drive>` come on top. */
export const BUILT_IN_SOURCES: readonly string[] = ["sonarr", "radarr", "lidarr", "readarr", "manual", "a-train", "watch", "drive"];

/** Names SOURCES may use: the built-in sources, every TRIGGERS name, and `a-train/<drive>`. */
export function isSourceName(name: string, config: Pick<Config, "TRIGGERS">): boolean {
  return BUILT_IN_SOURCES.includes(name) || /^a-train\/[^/]+$/.test(name) || config.TRIGGERS.some((t) => t.NAME === name);
}

/** Every rewrite and filter pattern compiles, and every SOURCES name is a source that exists. */
export function checkSourceRules(config: Config): string[] {
  const lists: RewriteList[] = [{ rules: config.SERVER_PATH_REWRITES, at: "SERVER_PATH_REWRITES" }];
  config.TARGETS.forEach((t, i) => lists.push({ rules: t.REWRITES ?? [], at: `TARGETS[${i}].REWRITES` }));
  const problems: string[] = [];
  for (const [name, entry] of Object.entries(config.SOURCES)) {
    const at = childPath("SOURCES", name);
    if (!isSourceName(name, config)) {
      const names = [...BUILT_IN_SOURCES, ...config.TRIGGERS.map((t) => t.NAME), "a-train/<drive id>"];
      problems.push(`${at}: no source has this name; the sources are ${names.join(", ")}`);
    }
    if (entry.REWRITES) lists.push({ rules: entry.REWRITES, at: `${at}.REWRITES` });
    for (const key of ["INCLUDE", "EXCLUDE"] as const) {
      (entry[key] ?? []).forEach((pattern, i) => {
        try {
          compilePattern(pattern, `${at}.${key}[${i}]`);
        } catch (error) {
          if (!(error instanceof PatternError)) throw error;
          problems.push(error.message);
        }
      });
    }
  }
  return [...rewriteProblems(lists), ...problems];
}
