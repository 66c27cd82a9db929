import { serverUrlProblem } from "../lib/server-url.js";
import { commandTemplateProblems } from "../hooks/arg-template.js";
import { PLEX_ENTRY_AFTER_SCAN_KEYS, PLEX_TARGET_NAMES, TYPE_ONLY_TARGET_KEYS } from "./defaults.js";
import { checkPathMappings } from "./mapping-rules.js";
import type { Config, TargetConfig } from "./types.js";

/** Credentials go into an HTTP header: printable ASCII only, and no spaces or quotes. */
function isHeaderSafe(value: string): boolean {
  return [...value].every((c) => c > " " && c <= "~" && c !== '"');
}

function hasControlCharacter(value: string): boolean {
  return [...value].some((c) => c < " " || c === "\u007f");
}

/** What depends on a TARGETS entry's TYPE, names unique across all targets, and at least one target. */
export function checkTargets(config: Config): string[] {
  const problems: string[] = [];
  const names = new Map<string, string>();
  if (config.PLEX_ENABLED) names.set(PLEX_TARGET_NAMES[config.PLEX_SCAN_METHOD], "the Plex target of the PLEX_* keys");
  config.TARGETS.forEach((entry, i) => {
    const at = `TARGETS[${i}]`;
    const owner = names.get(entry.NAME.toLowerCase());
    if (owner) problems.push(`${at}.NAME: "${entry.NAME}" is already the name of ${owner}; names must be unique`);
    else names.set(entry.NAME.toLowerCase(), at);
    problems.push(...(entry.TYPE === "command" ? checkCommandEntry(entry, at) : checkServerEntry(entry, at)));
    problems.push(...checkPathMappings(entry.PATH_MAPPINGS, `${at}.PATH_MAPPINGS`));
    if (entry.TYPE !== "plex") {
      for (const key of PLEX_ENTRY_AFTER_SCAN_KEYS) {
        if (entry[key] !== undefined) problems.push(`${at}.${key}: only TYPE "plex" takes it (after-scan work is Plex's)`);
      }
    }
    for (const [key, type] of Object.entries(TYPE_ONLY_TARGET_KEYS)) {
      if (entry.TYPE !== type && entry[key as keyof typeof TYPE_ONLY_TARGET_KEYS] !== undefined) {
        problems.push(`${at}.${key}: only TYPE "${type}" takes it`);
      }
    }
  });
  if (!config.PLEX_ENABLED && !config.TARGETS.some((t) => t.ENABLED)) {
    problems.push("PLEX_ENABLED: is false and no TARGETS entry is enabled; scans would go nowhere");
  }
  return problems;
}

function checkCredentials(entry: TargetConfig, at: string): string[] {
  const problems: string[] = [];
  if (entry.TYPE === "autoscan") {
    if (entry.TOKEN !== "") problems.push(`${at}.TOKEN: not used by TYPE "autoscan"; use USERNAME and PASSWORD`);
    if (entry.USERNAME !== "" && entry.PASSWORD === "") problems.push(`${at}.PASSWORD: must be set when USERNAME is`);
    if (entry.PASSWORD !== "" && entry.USERNAME === "") problems.push(`${at}.USERNAME: must be set when PASSWORD is`);
    // HTTP Basic joins the two with a colon; one in the user name would shift it into the password.
    if (entry.USERNAME.includes(":")) problems.push(`${at}.USERNAME: must not contain ":"`);
    if (hasControlCharacter(entry.USERNAME + entry.PASSWORD))
      problems.push(`${at}: USERNAME and PASSWORD must not contain control characters`);
    return problems;
  }
  for (const key of ["USERNAME", "PASSWORD"] as const) {
    if (entry[key] !== "") problems.push(`${at}.${key}: only TYPE "autoscan" uses USERNAME and PASSWORD; use TOKEN`);
  }
  if ((entry.TYPE === "jellyfin" || entry.TYPE === "emby") && entry.TOKEN === "") {
    problems.push(`${at}.TOKEN: must be set for TYPE "${entry.TYPE}" (an API key from the server's dashboard)`);
  }
  if ((entry.TYPE === "sonarr" || entry.TYPE === "radarr") && entry.TOKEN === "") {
    problems.push(`${at}.TOKEN: must be set for TYPE "${entry.TYPE}" (the API key from Settings > General)`);
  }
  if (!isHeaderSafe(entry.TOKEN)) problems.push(`${at}.TOKEN: must not contain spaces, quotes or control characters`);
  return problems;
}

/** A server's credentials and URL (every TYPE but "command"), and Tdarr's library. */
function checkServerEntry(entry: TargetConfig, at: string): string[] {
  const problems = checkCredentials(entry, at);
  const urlProblem = entry.URL === "" ? `must be set for TYPE "${entry.TYPE}"` : serverUrlProblem(entry.URL, credentialKeys(entry, at));
  if (urlProblem) problems.push(`${at}.URL: ${urlProblem}`);
  if (entry.TYPE === "tdarr" && entry.LIBRARY_ID === undefined) {
    problems.push(`${at}.LIBRARY_ID: must be set for TYPE "tdarr" (the id of the Tdarr library to scan new files into)`);
  }
  return problems;
}

/** A command target runs a program: no URL or credentials, and a usable argument template. */
function checkCommandEntry(entry: TargetConfig, at: string): string[] {
  const problems: string[] = [];
  for (const key of ["URL", "TOKEN", "USERNAME", "PASSWORD"] as const) {
    if (entry[key] !== "") problems.push(`${at}.${key}: not used by TYPE "command" (it runs COMMAND)`);
  }
  if (entry.COMMAND === undefined) problems.push(`${at}.COMMAND: must be set for TYPE "command" (the program, then its arguments)`);
  else problems.push(...commandTemplateProblems(entry.COMMAND).map((problem) => `${at}.COMMAND${problem}`));
  return problems;
}

function credentialKeys(entry: TargetConfig, at: string): string {
  return entry.TYPE === "autoscan" ? `${at}.USERNAME and ${at}.PASSWORD` : `${at}.TOKEN`;
}
