import type { TargetConfig } from "../config/types.js";
import { serverUrlProblem } from "../lib/server-url.js";

/** How a server's entry authenticates: a TOKEN (required, with where to find it, or optional), or HTTP Basic. */
export type EntryCredentials = { token: "optional" } | { token: "required"; where: string } | { basic: true };

/** Credentials go into an HTTP header: printable ASCII only, and no spaces or quotes. */
function isHeaderSafe(value: string): boolean {
  return [...value].every((c) => c > " " && c <= "~" && c !== '"');
}

function hasControlCharacter(value: string): boolean {
  return [...value].some((c) => c < " " || c === "\u007f");
}

/** The rules of a server's entry (every TYPE but "command"): its credentials, then its URL. */
export function checkServerEntry(entry: TargetConfig, at: string, credentials: EntryCredentials): string[] {
  const problems = "basic" in credentials ? checkBasic(entry, at) : checkToken(entry, at, credentials);
  const keys = "basic" in credentials ? `${at}.USERNAME and ${at}.PASSWORD` : `${at}.TOKEN`;
  const urlProblem = entry.URL === "" ? `must be set for TYPE "${entry.TYPE}"` : serverUrlProblem(entry.URL, keys);
  if (urlProblem) problems.push(`${at}.URL: ${urlProblem}`);
  return problems;
}

function checkBasic(entry: TargetConfig, at: string): string[] {
  const problems: string[] = [];
  if (entry.TOKEN !== "") problems.push(`${at}.TOKEN: not used by TYPE "${entry.TYPE}"; use USERNAME and PASSWORD`);
  if (entry.USERNAME !== "" && entry.PASSWORD === "") problems.push(`${at}.PASSWORD: must be set when USERNAME is`);
  if (entry.PASSWORD !== "" && entry.USERNAME === "") problems.push(`${at}.USERNAME: must be set when PASSWORD is`);
  // HTTP Basic joins the two with a colon; one in the user name would shift it into the password.
  if (entry.USERNAME.includes(":")) problems.push(`${at}.USERNAME: must not contain ":"`);
  if (hasControlCharacter(entry.USERNAME + entry.PASSWORD))
    problems.push(`${at}: USERNAME and PASSWORD must not contain control characters`);
  return problems;
}

function checkToken(entry: TargetConfig, at: string, credentials: Exclude<EntryCredentials, { basic: true }>): string[] {
  const problems: string[] = [];
  for (const key of ["USERNAME", "PASSWORD"] as const) {
    if (entry[key] !== "") problems.push(`${at}.${key}: only TYPE "autoscan" uses USERNAME and PASSWORD; use TOKEN`);
  }
  if (credentials.token === "required" && entry.TOKEN === "") {
    problems.push(`${at}.TOKEN: must be set for TYPE "${entry.TYPE}" (${credentials.where})`);
  }
  if (!isHeaderSafe(entry.TOKEN)) problems.push(`${at}.TOKEN: must not contain spaces, quotes or control characters`);
  return problems;
}
