import { UserError } from "../domain.js";

/**
 * Why `raw` cannot be a media server's base URL, or undefined when it can.
 * Credentials belong in their own keys (sent as headers, never logged), so a
 * URL carrying a user, a password or a query is refused. `credential` names
 * the key to use instead, for the message.
 */
export function serverUrlProblem(raw: string, credential: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `is not a URL: ${JSON.stringify(raw)}`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `must start with http:// or https://, not ${url.protocol}`;
  if (url.username !== "" || url.password !== "") return `must not contain a user name or password; use ${credential}`;
  if (url.search !== "") return `must not contain a query string; put the credential in ${credential}`;
  return undefined;
}

/** The base URL without a trailing slash (`http://host:8096/jf`); a UserError (exit 2) naming `key` when it is unusable. */
export function parseServerUrl(raw: string, key: string, credential: string): string {
  const problem = serverUrlProblem(raw, credential);
  if (problem) throw new UserError(`${key} ${problem}`, 2);
  const url = new URL(raw);
  return url.origin + url.pathname.replace(/\/+$/, "");
}
