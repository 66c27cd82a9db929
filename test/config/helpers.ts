import { ConfigError } from "../../src/config/load.js";
import { parseConfigText } from "./parse.js";
import type { ConfigRequirement } from "../../src/config/rules.js";

export const PASS = "0123456789abcdef0123456789abcdef";

/** A config.json holding a valid SERVER_PASS and `extra`, loaded as scanarr loads it: its keys as written, with the defaults. */
export function load(extra: Record<string, unknown>) {
  return parseConfigText(JSON.stringify({ SERVER_PASS: PASS, ...extra })).written;
}

/** The problems loading `text` as a config.json reports: none when it loads. */
export function problemsIn(text: string, require?: readonly ConfigRequirement[]): string[] {
  try {
    parseConfigText(text, "config.json", require);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

/** The problems of a config that must be refused; fails when it loads. */
export function refused(problems: string[]): string[] {
  if (problems.length === 0) throw new Error("expected a ConfigError");
  return problems;
}

/** The problems loading `extra` (with a valid SERVER_PASS) reports; fails when it loads. */
export function problemsOf(extra: Record<string, unknown>): string[] {
  return refused(problemsIn(JSON.stringify({ SERVER_PASS: PASS, ...extra })));
}
