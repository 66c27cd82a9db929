import { TargetFatalError } from "../domain.js";
import { readServerUrl } from "../lib/server-url.js";

/**
 * The base URL without a trailing slash (`http://host:8096/jf`); a
 * TargetFatalError naming `key` when it is unusable. Config validation refuses
 * such a URL first (exit 2), so an adapter meets one only when built by hand.
 */
export function parseServerUrl(raw: string, key: string, credential: string): string {
  const read = readServerUrl(raw, key, credential);
  if (read.problem !== undefined) throw new TargetFatalError(read.problem);
  return read.url;
}
