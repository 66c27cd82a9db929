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

/** A usable base URL, or the problem (a sentence starting with the key) that makes it unusable. */
export type ServerUrl = { url: string; problem?: undefined } | { url?: undefined; problem: string };

/**
 * The base URL without a trailing slash (`http://host:8096/jf`), or why `raw`
 * is unusable, naming `key`. A rule, not a verdict: config validation reports
 * the problem (the CLI exits 2), an adapter throws a TargetFatalError.
 */
export function readServerUrl(raw: string, key: string, credential: string): ServerUrl {
  const problem = serverUrlProblem(raw, credential);
  if (problem) return { problem: `${key} ${problem}` };
  const url = new URL(raw);
  return { url: url.origin + url.pathname.replace(/\/+$/, "") };
}
