import { serverUrlProblem } from "../lib/server-url.js";
import { checkPathMappings } from "./mapping-rules.js";
import { checkTargets } from "./target-rules.js";
import { parsePath } from "../paths/parse.js";
import { childPath } from "./validate.js";
import { checkCompatRules } from "./compat-rules.js";
import type { TargetKinds } from "./target-kind.js";
import type { Config } from "./types.js";
import { checkMountRules } from "./mount-rules.js";
import { checkNotifications } from "./notify-rules.js";
import { checkSourceRules } from "./source-rules.js";
import { checkRemoteRules } from "./remote-rules.js";

/**
 * What a command needs beyond a well-formed file: "server" (the HTTP service:
 * a SERVER_PASS of its own) and "plex" (credentials for the chosen scan method).
 */
export type ConfigRequirement = "server" | "plex";

export const ALL_REQUIREMENTS: readonly ConfigRequirement[] = ["server", "plex"];

/** Checks that need several keys at once; run after the shape is valid. */
export function checkRules(config: Config, kinds: TargetKinds): string[] {
  const problems = checkPathMappings(config.SERVER_PATH_MAPPINGS, "SERVER_PATH_MAPPINGS");
  for (const key of Object.keys(config.SERVER_PATH_MAPPINGS)) {
    const keyProblem = checkMappingKey(key);
    if (keyProblem) problems.push(`${childPath("SERVER_PATH_MAPPINGS", key)}: ${keyProblem}`);
  }
  if (config.PLEX_SCAN_METHOD === "scanner" && config.PLEX_SCANNER.trim() === "") {
    problems.push('PLEX_SCANNER: must be set when PLEX_SCAN_METHOD is "scanner"');
  }
  if (config.USE_DOCKER && config.DOCKER_NAME.trim() === "") problems.push("DOCKER_NAME: must be set when USE_DOCKER is true");
  problems.push(...checkCompatRules(config));
  problems.push(...checkTargets(config, kinds));
  problems.push(...checkMountRules(config));
  problems.push(...checkNotifications(config));
  problems.push(...checkSourceRules(config));
  problems.push(...checkRemoteRules(config));
  const plexUrl = config.PLEX_LOCAL_URL === "" ? undefined : plexUrlProblem(config.PLEX_LOCAL_URL);
  if (plexUrl !== undefined) problems.push(`PLEX_LOCAL_URL: ${plexUrl}`);
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

/**
 * What is wrong with a PLEX_LOCAL_URL, or undefined. Credentials or a token
 * in the URL would end up in logs and error messages; PLEX_TOKEN carries the
 * token in a header instead. The same rule as every target's URL.
 */
export function plexUrlProblem(value: string): string | undefined {
  return serverUrlProblem(value, "PLEX_TOKEN");
}
