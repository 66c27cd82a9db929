import { PathError, createPathMapper } from "../paths/mapper.js";
import { parsePath } from "../paths/parse.js";
import type { Config } from "./types.js";
import { childPath } from "./validate.js";

/**
 * What a command needs beyond a well-formed file: "server" (the HTTP service:
 * a SERVER_PASS of its own) and "plex" (credentials for the chosen scan method).
 */
export type ConfigRequirement = "server" | "plex";

export const ALL_REQUIREMENTS: readonly ConfigRequirement[] = ["server", "plex"];

/** Checks that need several keys at once; run after the shape is valid. */
export function checkRules(config: Config): string[] {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const [key, alternatives] of Object.entries(config.SERVER_PATH_MAPPINGS)) {
    const keyProblem = checkMappingKey(key);
    if (keyProblem) problems.push(`${childPath("SERVER_PATH_MAPPINGS", key)}: ${keyProblem}`);
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
  return problems;
}

/**
 * A key is the media server's own path, so it is absolute: `data/Anime/`
 * (no leading slash) would only ever match cloud-drive paths and never a
 * library. Syntax errors (NUL, `..`) are the mapper's to report.
 */
function checkMappingKey(key: string): string | undefined {
  let style: string;
  try {
    style = parsePath(key).style;
  } catch {
    return undefined;
  }
  if (style !== "relative") return undefined;
  return `a key is the media server's own path and must be absolute: did you mean ${JSON.stringify(`/${key}`)}?`;
}

/** Problems per requirement; the loader enforces the ones a command needs. */
export function checkRequirements(config: Config, facts: { passGiven: boolean }): Array<[ConfigRequirement, string[]]> {
  const server: string[] = [];
  if (!facts.passGiven) server.push("SERVER_PASS: missing; set a random string of 32 characters (scanarr init writes one)");
  const plex: string[] = [];
  if (config.PLEX_SCAN_METHOD === "api" && config.PLEX_TOKEN.trim() === "") {
    plex.push(
      'PLEX_TOKEN: must be set when PLEX_SCAN_METHOD is "api" (Plex refuses partial scans without an admin token; see docs/plex-token.md)',
    );
  }
  return [
    ["server", server],
    ["plex", plex],
  ];
}
