import { PathError, createPathMapper } from "../paths/mapper.js";
import { checkCompatRules } from "./compat-rules.js";
import type { Config } from "./types.js";
import { childPath } from "./validate.js";

/** Checks that need several keys at once; run after the shape is valid. */
export function checkRules(config: Config): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const [key, alternatives] of Object.entries(config.SERVER_PATH_MAPPINGS)) {
    alternatives.forEach((alt, i) => {
      const at = `${childPath("SERVER_PATH_MAPPINGS", key)}[${i}]`;
      const normal = alt.replace(/[\\/]+$/, "");
      const other = seen.get(normal);
      if (other !== undefined && other !== key)
        problems.push(`${at}: "${alt}" is also listed under ${JSON.stringify(other)}; a prefix can map to one key only`);
      seen.set(normal, key);
    });
  }
  try {
    createPathMapper(config.SERVER_PATH_MAPPINGS);
  } catch (error) {
    if (error instanceof PathError) problems.push(`SERVER_PATH_MAPPINGS: ${error.message}`);
    else throw error;
  }
  if (config.PLEX_SCAN_METHOD === "scanner" && config.PLEX_SCANNER.trim() === "") {
    problems.push('PLEX_SCANNER: must be set when PLEX_SCAN_METHOD is "scanner"');
  }
  if (config.USE_DOCKER && config.DOCKER_NAME.trim() === "") problems.push("DOCKER_NAME: must be set when USE_DOCKER is true");
  problems.push(...checkCompatRules(config));
  return problems;
}
