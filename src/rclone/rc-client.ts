import { parseJsonObject } from "../lib/json-object.js";
import { describeFetchCause, isAuthStatus, isTimeout } from "../lib/http-status.js";
import { httpFetch, type HttpFetchResponse } from "../lib/http-fetch.js";
import type { Logger } from "../lib/logger.js";
import { RcAuthError, RcCommandError, RcDirError, RcUnreachableError } from "./rc-errors.js";

export type RcState = "unknown" | "ok" | "unreachable" | "unauthorized";

export interface RcClientOptions {
  /** Base URL of rclone's remote control, e.g. http://localhost:5572. */
  url: string;
  /** HTTP Basic credentials (rclone's --rc-user/--rc-pass); never logged. */
  user?: string;
  pass?: string;
  /** Bound of one call (default 60 s: refreshing a large remote folder takes a while). */
  timeoutMs?: number;
  logger: Logger;
}

export interface RefreshOptions {
  /** The VFS to refresh; required by rclone when several are active (see listVfs). */
  fs?: string;
  /** Refresh the whole tree below each folder (sent as the string "true", the only form rclone accepts). */
  recursive?: boolean;
}

export interface RefreshReport {
  refreshed: string[];
  failed: RcDirError[];
}

/** The subset of rclone's remote control scanarr uses. */
export interface RcClient {
  readonly state: RcState;
  /** Names of the active VFS (one per `rclone mount` or `serve` with --rc). */
  listVfs(): Promise<string[]>;
  /**
   * Refreshes the directory cache of `dirs` (remote paths, "" = the root) in
   * one call, checking rclone's answer for every folder. Throws RcUnreachableError,
   * RcAuthError or RcCommandError when the call as a whole fails.
   */
  refresh(dirs: readonly string[], options?: RefreshOptions): Promise<RefreshReport>;
}

/** A client of rclone's remote control; reachability changes are logged once each. */
export function createRcClient(options: RcClientOptions): RcClient {
  const { base, user, pass, shown } = splitUrl(options);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const logger = options.logger;
  let state: RcState = "unknown";

  const setState = (next: RcState, why?: string): void => {
    if (next === state) return;
    const before = state;
    state = next;
    if (next === "unreachable")
      logger.warn({ rc: shown, error: why }, "rclone remote control is unreachable; file checks go on without refresh");
    else if (next === "unauthorized")
      logger.error({ rc: shown, error: why }, "rclone remote control refused our credentials: check RC_USER and RC_PASS");
    else if (before !== "unknown") logger.info({ rc: shown }, "rclone remote control answers again");
  };

  const call = async (command: string, body: Record<string, string>): Promise<Record<string, unknown>> => {
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (user !== "" || pass !== "") headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
    let response: HttpFetchResponse;
    let text: string;
    try {
      response = await httpFetch(`${base}/${command}`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const why = isTimeout(error) ? `no answer within ${timeoutMs / 1000} s` : describeFetchCause(error);
      setState("unreachable", why);
      throw new RcUnreachableError(`rclone remote control at ${shown} is unreachable: ${why}`);
    }
    if (isAuthStatus(response.status)) {
      setState("unauthorized", `HTTP ${response.status}`);
      throw new RcAuthError(`rclone remote control at ${shown} refused the credentials (HTTP ${response.status})`);
    }
    const json = parseJsonObject(text);
    if (json === undefined) {
      setState("unreachable", `HTTP ${response.status}, not JSON`);
      throw new RcUnreachableError(`${shown} answered HTTP ${response.status} without JSON: is it rclone's remote control?`);
    }
    setState("ok");
    if (!response.ok) {
      const why = typeof json.error === "string" ? json.error : `HTTP ${response.status}`;
      throw new RcCommandError(`rclone ${command}: ${why}`, response.status);
    }
    return json;
  };

  const refreshOnce = async (dirs: readonly string[], options: RefreshOptions): Promise<RefreshReport> => {
    const body: Record<string, string> = {};
    // rclone reads dir, dir2, dir3, ...; no key at all means the root ("" as a value is "file does not exist").
    dirs.forEach((dir, i) => {
      if (dir !== "") body[i === 0 ? "dir" : `dir${i + 1}`] = dir;
    });
    if (options.fs !== undefined) body.fs = options.fs;
    if (options.recursive) body.recursive = "true";
    const json = await call("vfs/refresh", body);
    const result = json.result;
    if (typeof result !== "object" || result === null) throw new RcCommandError("rclone vfs/refresh: the answer has no result", 200);
    const report: RefreshReport = { refreshed: [], failed: [] };
    for (const dir of dirs) {
      const answer = (result as Record<string, unknown>)[dir];
      if (answer === "OK") report.refreshed.push(dir);
      else report.failed.push(new RcDirError(dir, typeof answer === "string" ? answer : "rclone gave no answer for this folder"));
    }
    return report;
  };

  return {
    get state() {
      return state;
    },
    async listVfs() {
      const json = await call("vfs/list", {});
      const names = json.vfses;
      if (!Array.isArray(names)) throw new RcCommandError("rclone vfs/list: the answer has no vfses list", 200);
      return names.filter((n): n is string => typeof n === "string");
    },
    async refresh(dirs, refreshOptions = {}) {
      const unique = [...new Set(dirs.map(normalizeRemoteDir))];
      const others = unique.filter((d) => d !== "");
      const report: RefreshReport = { refreshed: [], failed: [] };
      // The root cannot share a call with named folders: it is the call without any dir key.
      for (const group of [others, unique.includes("") ? [""] : []]) {
        if (group.length === 0) continue;
        const part = await refreshOnce(group, refreshOptions);
        report.refreshed.push(...part.refreshed);
        report.failed.push(...part.failed);
      }
      return report;
    },
  };
}

/** A remote folder as rclone names it: no leading or trailing slash, "" for the root. */
export function normalizeRemoteDir(dir: string): string {
  return dir.replace(/\/{2,}/g, "/").replace(/^\/+|\/+$/g, "");
}

function splitUrl(options: RcClientOptions): { base: string; user: string; pass: string; shown: string } {
  const url = new URL(options.url);
  // fetch refuses URLs with credentials; take them out and send them as Basic auth instead.
  const user = options.user || decodeURIComponent(url.username);
  const pass = options.pass || decodeURIComponent(url.password);
  url.username = "";
  url.password = "";
  const base = url.toString().replace(/\/+$/, "");
  return { base, user, pass, shown: base };
}
