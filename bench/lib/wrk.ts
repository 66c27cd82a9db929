import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sonarrDownloadBody, type Episode } from "./sonarr-payload.js";

export interface WrkResult {
  requests: number;
  seconds: number;
  /** Answers wrk counted as errors: non-2xx/3xx, connect, read, write, timeout. */
  errors: number;
  /** Of those, the answers outside 2xx/3xx, when the script reports them (`status` in its line). */
  non2xx?: number;
  perSec: number;
  p50: number;
  p99: number;
  max: number;
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

/** A Lua string literal holding `s`. */
export const luaString = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;

/**
 * A wrk Lua script posting `count` distinct Sonarr Download bodies in turn
 * (pre-formatted once, so wrk spends nothing per request on building them),
 * and printing its summary as one JSON line after `WRK-RESULT`.
 */
export function writeWrkScript(dir: string, count: number, episodeOf: (n: number) => Episode): string {
  const bodies = Array.from({ length: count }, (_, n) => luaString(sonarrDownloadBody(episodeOf(n))));
  const script = `
local bodies = { ${bodies.join(",\n")} }
local requests = {}
local i = 0
function init(args)
  local headers = { ["Content-Type"] = "application/json", ["User-Agent"] = "Sonarr/4.0.14.2939" }
  for n, body in ipairs(bodies) do requests[n] = wrk.format("POST", nil, headers, body) end
  i = math.random(#requests) - 1
end
function request()
  i = i % #requests + 1
  return requests[i]
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK-RESULT {"requests":%d,"us":%d,"errors":%d,"p50":%.3f,"p99":%.3f,"max":%.3f}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
`;
  const file = path.join(dir, "sonarr-download.lua");
  writeFileSync(file, script);
  return file;
}

/** `wrk -t<threads> -c<connections> -d<seconds>s` against `url` with the script; resolves with its summary. */
export function runWrk(
  wrk: string,
  script: string,
  url: string,
  options: { threads: number; connections: number; seconds: number },
): Promise<WrkResult> {
  const args = [`-t${options.threads}`, `-c${options.connections}`, `-d${options.seconds}s`, "--timeout", "10s", "-s", script, url];
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
        status?: number;
        p50: number;
        p99: number;
        max: number;
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
      });
    });
  });
}

/** A process spinning one core until it is killed (`--busy`): the other work a real host runs beside. */
export function startBusyLoop(): { stop(): void } {
  const child = spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
  return { stop: () => void child.kill("SIGKILL") };
}
