import { checkPathMappings } from "./mapping-rules.js";
import { checkTargets } from "./target-rules.js";
import { checkCompatRules } from "./compat-rules.js";
import type { Config } from "./types.js";

/** Checks that need several keys at once; run after the shape is valid. */
export function checkRules(config: Config): string[] {
  const problems = checkPathMappings(config.SERVER_PATH_MAPPINGS, "SERVER_PATH_MAPPINGS");
  if (config.PLEX_SCAN_METHOD === "scanner" && config.PLEX_SCANNER.trim() === "") {
    problems.push('PLEX_SCANNER: must be set when PLEX_SCAN_METHOD is "scanner"');
  }
  if (config.USE_DOCKER && config.DOCKER_NAME.trim() === "") problems.push("DOCKER_NAME: must be set when USE_DOCKER is true");
  problems.push(...checkCompatRules(config));
  problems.push(...checkTargets(config));
  return problems;
}
