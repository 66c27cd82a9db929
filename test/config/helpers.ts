import { ConfigError, parseConfigText } from "../../src/config/load.js";

export const PASS = "0123456789abcdef0123456789abcdef";

/** A config.json holding a valid SERVER_PASS and `extra`, loaded as scanarr loads it. */
export function load(extra: Record<string, unknown>) {
  return parseConfigText(JSON.stringify({ SERVER_PASS: PASS, ...extra })).config;
}

/** The problems loading `extra` reports; fails when it loads. */
export function problemsOf(extra: Record<string, unknown>): string[] {
  try {
    load(extra);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}
