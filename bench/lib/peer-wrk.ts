import { writeFileSync } from "node:fs";
import path from "node:path";
import { sonarrDownloadBody } from "./sonarr-payload.js";
import { luaString } from "./wrk.js";

// A series number no other field of the body holds: the body is split where it stands.
const SENTINEL = 987_654_321;

/** The Sonarr Download body split where its series number goes (id, title, folder, file name, images). */
function bodyParts(): string[] {
  const parts = sonarrDownloadBody({ series: SENTINEL, season: 1, episode: 1 }).split(String(SENTINEL));
  if (parts.length < 3) throw new Error("the Sonarr body no longer names its series number in the folder");
  return parts;
}

export interface NewSeriesScriptOptions {
  /** The first request names series `start + 1`; give each run of one server its own range. */
  start: number;
  /** Headers beside Content-Type and Sonarr's User-Agent (autoscan's basic auth). */
  headers?: Record<string, string>;
}

/**
 * A wrk Lua script whose every request is a Sonarr Download naming a new
 * episode file in a new series folder (`/tv/Show <n>/Season 1/...`, n counting
 * up from `start`): the load real *arr traffic makes, where a repeat is the
 * exception. The body is joined from pre-split parts per request (one
 * `table.concat`), so wrk spends little on it. Prints its summary as one JSON
 * line after `WRK-RESULT`, the fields `runWrk` reads plus `status`, the
 * answers outside 2xx/3xx.
 */
export function writeNewSeriesWrkScript(dir: string, options: NewSeriesScriptOptions): string {
  const headers = { "Content-Type": "application/json", "User-Agent": "Sonarr/4.0.14.2939", ...options.headers };
  const headerLua = Object.entries(headers)
    .map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`)
    .join(", ");
  const script = `
local parts = { ${bodyParts().map(luaString).join(",\n")} }
local headers = { ${headerLua} }
local n = ${options.start}
function request()
  n = n + 1
  return wrk.format("POST", nil, headers, table.concat(parts, tostring(n)))
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK-RESULT {"requests":%d,"us":%d,"errors":%d,"status":%d,"p50":%.3f,"p99":%.3f,"max":%.3f}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout, e.status,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
`;
  const file = path.join(dir, `sonarr-new-series-${options.start}.lua`);
  writeFileSync(file, script);
  return file;
}
