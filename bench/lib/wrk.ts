import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SONARR_DOWNLOAD_PARTS, SONARR_FIELDS, type FileLayout, type SonarrField } from "./sonarr-payload.js";

export interface WrkResult {
  requests: number;
  seconds: number;
  /** Answers wrk counted as errors: non-2xx/3xx, connect, read, write, timeout. */
  errors: number;
  /** Of those, the answers outside 2xx/3xx. */
  non2xx: number;
  perSec: number;
  p50: number;
  p99: number;
  max: number;
  /** The first k of the load no request of this run used: where the next run against the same server starts. */
  next: number;
}

/** wrk's path; installs Debian's `wrk` through apt-get when it is missing (root only), saying so. */
export function ensureWrk(): string {
  const found = spawnSync("sh", ["-c", "command -v wrk"], { encoding: "utf8" }).stdout.trim();
  if (found) return found;
  console.error("wrk is not installed: installing Debian's wrk with apt-get (the wrk mode of this bench needs it)");
  const apt = (args: string[]) =>
    execFileSync("apt-get", args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  try {
    apt(["install", "-y", "--no-install-recommends", "wrk"]);
  } catch {
    apt(["update"]);
    apt(["install", "-y", "--no-install-recommends", "wrk"]);
  }
  if (!existsSync("/usr/bin/wrk")) throw new Error("apt-get did not install wrk; install it (apt-get install wrk) and run again");
  return "/usr/bin/wrk";
}

const luaString = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\r/g, "\\r")}"`;

/** What the wrk script posts: Sonarr Download webhooks, each naming a file no earlier request named. */
export interface WrkLoad {
  layout: FileLayout;
  /** The request path (`/<pass>` for serve, `/triggers/sonarr` for autoscan); the URL's own path when absent. */
  path?: string;
  /** Headers beside Content-Type and Sonarr's User-Agent (e.g. an Authorization header). */
  headers?: Record<string, string>;
}

/** Lua computing `series, season, episode` of the k-th file, as episodeAt() does. */
function luaEpisodeAt(layout: FileLayout): string {
  if (layout.folders === "new") {
    return `local function episode_at(k)
  return math.floor(k / ${layout.seasons}), k % ${layout.seasons} + 1, 1
end`;
  }
  const folders = layout.series * layout.seasons;
  return `local function episode_at(k)
  local folder = k % ${folders}
  return folder % ${layout.series}, math.floor(folder / ${layout.series}) + 1, math.floor(k / ${folders}) + 1
end`;
}

/**
 * A wrk Lua script that builds every request as it sends it: the k-th
 * request names the k-th file of the layout (episodeAt(), the same bytes
 * sonarrDownloadBody() gives), so no two requests name the same file.
 * Script arguments (after `--`): the first k (so a later run against the
 * same server goes on with new files) and wrk's thread count (threads
 * interleave their k). Prints its summary as one JSON line after
 * `WRK-RESULT`, with `next`: the first k no request of this run used.
 */
export function sonarrWrkScript(load: WrkLoad): string {
  const headers = { "Content-Type": "application/json", "User-Agent": "Sonarr/4.0.14.2939", ...load.headers };
  const headerLines = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  // The request is one concatenation: the head up to Content-Length's value, the value, the blank line,
  // then the body's pieces. One string per request, not a body and then a request (wrk.format), keeps
  // wrk's single thread ahead of a bare server.
  const HEAD = 3;
  const slots = new Map<SonarrField, number[]>(SONARR_FIELDS.map((f) => [f, []]));
  let fixedLength = 0;
  const pieces = SONARR_DOWNLOAD_PARTS.map((part, i) => {
    if (i % 2 === 0) {
      fixedLength += Buffer.byteLength(part);
      return luaString(part);
    }
    slots.get(part as SonarrField)?.push(HEAD + i + 1); // Lua indexes from 1
    return '""';
  });
  const used = SONARR_FIELDS.filter((f) => (slots.get(f) ?? []).length > 0);
  const fill = (name: SonarrField) => (slots.get(name) ?? []).map((at) => `  buf[${at}] = ${name}`).join("\n");
  const length = [String(fixedLength), ...used.map((f) => `${slots.get(f)?.length} * #${f}`)].join(" + ");
  return `-- Sonarr Download webhooks, a new file in each (bench/lib/wrk.ts).
local buf = { "", "", "\\r\\n\\r\\n", ${pieces.join(", ")} }
local path = ${load.path === undefined ? "nil" : luaString(load.path)}
${luaEpisodeAt(load.layout)}
local function pad2(n)
  return n < 10 and "0" .. n or tostring(n)
end
local threads = {}
function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end
-- Globals, so done() can read them through thread:get().
first, step, n = 0, 1, 0
function init(args)
  first = tonumber(args[1] or "0")
  step = tonumber(args[2] or "1")
  buf[1] = "POST " .. (path or wrk.path) .. " HTTP/1.1\\r\\nHost: " .. wrk.headers["Host"] .. "\\r\\n" .. ${luaString(headerLines)} .. "Content-Length: "
end
function request()
  local k = first + n * step + tid
  n = n + 1
  local s, se, e = episode_at(k)
  local series, season, episode, s00, e00, fileId = tostring(s), tostring(se), tostring(e), pad2(se), pad2(e), tostring(k + 1)
${used.map(fill).join("\n")}
  buf[2] = tostring(${length})
  return table.concat(buf)
end
function done(summary, latency, requests)
  local e = summary.errors
  local most, first_k, step_k = 0, 0, 1
  for _, thread in ipairs(threads) do
    most = math.max(most, thread:get("n"))
    first_k, step_k = thread:get("first"), thread:get("step")
  end
  io.write(string.format('WRK-RESULT {"requests":%d,"us":%d,"errors":%d,"status":%d,"p50":%.3f,"p99":%.3f,"max":%.3f,"next":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout, e.status,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000, first_k + most * step_k))
end
`;
}

/** Writes sonarrWrkScript(load) into `dir`; returns the file's path. */
export function writeWrkScript(dir: string, load: WrkLoad): string {
  const file = path.join(dir, "sonarr-download.lua");
  writeFileSync(file, sonarrWrkScript(load));
  return file;
}

/**
 * `wrk -t<threads> -c<connections> -d<seconds>s` against `url` with a script
 * of sonarrWrkScript(), its k starting at `first`; resolves with its summary.
 */
export function runWrk(
  wrk: string,
  script: string,
  url: string,
  options: { threads: number; connections: number; seconds: number; first?: number },
): Promise<WrkResult> {
  const args = [`-t${options.threads}`, `-c${options.connections}`, `-d${options.seconds}s`, "--timeout", "10s", "-s", script, url];
  args.push("--", String(options.first ?? 0), String(options.threads));
  return new Promise((resolve, reject) => {
    const child = spawn(wrk, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      const line = /WRK-RESULT (\{.*\})/.exec(out)?.[1];
      if (code !== 0 || !line) return reject(new Error(`wrk exited ${code}:\n${out}`));
      const r = JSON.parse(line) as {
        requests: number;
        us: number;
        errors: number;
        status: number;
        p50: number;
        p99: number;
        max: number;
        next: number;
      };
      const seconds = r.us / 1e6;
      resolve({
        requests: r.requests,
        seconds,
        errors: r.errors,
        non2xx: r.status,
        perSec: (r.requests - r.errors) / seconds,
        p50: r.p50,
        p99: r.p99,
        max: r.max,
        next: r.next,
      });
    });
  });
}

/** A process spinning one core until it is killed (`--busy`): the other work a real host runs beside. */
export function startBusyLoop(): { stop(): void } {
  const child = spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
  return { stop: () => void child.kill("SIGKILL") };
}
