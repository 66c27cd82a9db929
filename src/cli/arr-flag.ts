import { UserError } from "../domain.js";
import { serverUrlProblem } from "../lib/server-url.js";

/** One `--arr <url>,<api key>` value: an *arr app's address and its API key. */
export interface ArrFlag {
  url: string;
  apiKey: string;
}

/**
 * Reads `--arr <url>,<api key>` (split at the last comma: a URL may hold
 * one, an API key never does). A bad value is a usage error (exit 2) that
 * names the flag and never repeats the key.
 */
export function parseArrFlag(value: string, flag = "--arr"): ArrFlag {
  const comma = value.lastIndexOf(",");
  if (comma <= 0 || comma === value.length - 1)
    throw new UserError(`${flag}: expected <url>,<api key> (the app's address, a comma, its API key from Settings > General)`, 2);
  const url = value.slice(0, comma).trim();
  const apiKey = value.slice(comma + 1).trim();
  const problem = serverUrlProblem(url, "the part after the comma");
  if (problem !== undefined) throw new UserError(`${flag}: the URL ${problem}`, 2);
  return { url, apiKey };
}
