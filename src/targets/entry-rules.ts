import type { TargetConfig } from "../config/types.js";
import { serverUrlProblem } from "../lib/server-url.js";

/** How a server's entry authenticates: a TOKEN (required, with where to find it, or optional), HTTP Basic, or not at all. */
export type EntryCredentials = { token: "optional" } | { token: "required"; where: string } | { basic: true } | { none: true };

/** Credentials go into an HTTP header: printable ASCII only, and no spaces or quotes. */
function isHeaderSafe(value: string): boolean {
  return [...value].every((c) => c > " " && c <= "~" && c !== '"');
}

function hasControlCharacter(value: string): boolean {
  return [...value].some((c) => c < " " || c === "\u007f");
}

/** The rules of a server's entry (every TYPE but "command"): its credentials, then its URL. */
export function checkServerEntry(entry: TargetConfig, at: string, credentials: EntryCredentials): string[] {
  if ("none" in credentials) return checkNoCredential(entry, at);
  const problems = "basic" in credentials ? checkBasic(entry, at) : checkToken(entry, at, credentials);
  const keys = "basic" in credentials ? `${at}.USERNAME and ${at}.PASSWORD` : `${at}.TOKEN`;
  return [...problems, ...checkUrl(entry, at, keys)];
}

function checkUrl(entry: TargetConfig, at: string, keys: string): string[] {
  const urlProblem = entry.URL === "" ? `must be set for TYPE "${entry.TYPE}"` : serverUrlProblem(entry.URL, keys);
  return urlProblem ? [`${at}.URL: ${urlProblem}`] : [];
}

/** A server scanarr sends no credential (FileFlows): every credential key is refused, and the URL may carry none either. */
function checkNoCredential(entry: TargetConfig, at: string): string[] {
  const problems = (["TOKEN", "USERNAME", "PASSWORD"] as const)
    .filter((key) => entry[key] !== "")
    .map((key) => `${at}.${key}: not used by TYPE "${entry.TYPE}" (scanarr sends it no credential)`);
  return [...problems, ...checkUrl(entry, at, "no credential")];
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

function checkToken(entry: TargetConfig, at: string, credentials: Extract<EntryCredentials, { token: unknown }>): string[] {
  const problems: string[] = [];
  for (const key of ["USERNAME", "PASSWORD"] as const) {
    if (entry[key] !== "") problems.push(`${at}.${key}: only TYPEs "autoscan" and "audiobookshelf" use USERNAME and PASSWORD; use TOKEN`);
  }
  if (credentials.token === "required" && entry.TOKEN === "") {
    problems.push(`${at}.TOKEN: must be set for TYPE "${entry.TYPE}" (${credentials.where})`);
  }
  if (!isHeaderSafe(entry.TOKEN)) problems.push(`${at}.TOKEN: must not contain spaces, quotes or control characters`);
  return problems;
}
