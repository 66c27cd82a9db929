import { TargetFatalError } from "../domain.js";
import { readServerUrl } from "../lib/server-url.js";
import { HttpClient, isFields } from "../http/client.js";
import { ARR_KIND_INFO, ARR_KINDS, kindOfAppName, type ArrKind } from "./kinds.js";

/** An *arr app recognised from its `system/status`. */
export interface ArrApp {
  kind: ArrKind;
  /** Base URL without a trailing slash (a reverse-proxy URL base is kept). */
  url: string;
  apiKey: string;
  version: string;
  /** The instance's own name (Settings → General), when it sent one. */
  instanceName?: string;
}

export interface ArrCallOptions {
  /** Per request; 30 s by default. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface RecogniseOptions extends ArrCallOptions {
  /** The app the caller expects: named in errors, tried first, and a different app is refused. */
  kind?: ArrKind;
}

/** Where the API key is found in every *arr app, for the hint on a 401. */
const API_KEY_HINT = "the API key (in the app: Settings > General > Security > API Key)";

/**
 * The base URL without a trailing slash (a URL base such as `/sonarr` kept, a
 * pasted API root such as `/api/v3` dropped), or a TargetFatalError saying
 * why `raw` cannot be one.
 */
export function arrBaseUrl(raw: string): string {
  const read = readServerUrl(raw, "the app's URL", "the API key");
  if (read.problem !== undefined) throw new TargetFatalError(read.problem);
  return read.url.replace(/\/api(?:\/v\d+)?$/i, "");
}

/**
 * The one HTTP client of an *arr app: the key in `X-Api-Key` (never in the
 * URL), statuses mapped by the shared table, a 401 naming the app and its
 * API key, and the key never in a message.
 */
export function arrHttp(
  base: string,
  apiKey: string,
  who: { appName: string; apiRoot: string },
  options: ArrCallOptions & { secrets?: readonly string[]; configKeys?: { urlKey: string; credentialKey: string } } = {},
): HttpClient {
  // A TARGETS entry names its config keys in messages; set-up names where the app shows its key.
  const keys = options.configKeys;
  return new HttpClient({
    label: keys
      ? { kind: who.appName, where: base, credential: keys.credentialKey, urlKey: keys.urlKey }
      : { kind: who.appName, where: base, credential: API_KEY_HINT, urlKey: "the app's URL", hints: { credentialNoun: "API key" } },
    root: base + who.apiRoot,
    headers: { "X-Api-Key": apiKey },
    secrets: [apiKey, ...(options.secrets ?? [])],
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
  });
}

/** The client of a recognised app. */
export function appHttp(app: ArrApp, options: ArrCallOptions & { secrets?: readonly string[] } = {}): HttpClient {
  return arrHttp(app.url, app.apiKey, ARR_KIND_INFO[app.kind], options);
}

/**
 * Which *arr app answers at `url`, from `GET /api/v3|v1/system/status`
 * (`appName`). Sonarr and Radarr answer under /api/v3, Lidarr and Readarr
 * under /api/v1; a 404 on one root means the other. A wrong key is a
 * TargetAuthError naming the app (or "the *arr app" when not yet known) and
 * the API key; no answer names the address tried.
 */
export async function recogniseArr(url: string, apiKey: string, options: RecogniseOptions = {}): Promise<ArrApp> {
  const base = arrBaseUrl(url);
  if (apiKey.trim() === "") throw new TargetFatalError(`the API key for ${base} is empty`);
  const expected = options.kind;
  const appName = expected ? ARR_KIND_INFO[expected].appName : "The *arr app";
  const roots = expected ? [ARR_KIND_INFO[expected].apiRoot] : ["/api/v3", "/api/v1"];
  for (const apiRoot of roots) {
    const status = await readSystemStatus(arrHttp(base, apiKey, { appName, apiRoot }, options), apiRoot);
    if (status === undefined) continue;
    const kind = kindOfAppName(status.appName);
    if (kind === undefined)
      throw new TargetFatalError(`${base} is ${status.appName}, not Sonarr, Radarr, Lidarr or Readarr (${ARR_KINDS.join(", ")})`);
    if (expected !== undefined && kind !== expected)
      throw new TargetFatalError(`${base} is ${status.appName}, not ${ARR_KIND_INFO[expected].appName}`);
    return { kind, url: base, apiKey, version: status.version, ...(status.instanceName ? { instanceName: status.instanceName } : {}) };
  }
  throw new TargetFatalError(`${appName} at ${base}: no system/status under ${roots.join(" or ")} (404); is this the app's address?`);
}

/** What an *arr app says of itself in `system/status`. */
export interface ArrStatus {
  appName: string;
  version: string;
  instanceName?: string;
}

/**
 * `GET system/status` under `apiRoot`: the app's name and version, or
 * undefined on a 404 when `apiRoot` is not this app's (`/api/v3` asked of
 * Lidarr); an answer with no `appName` is worth a retry.
 */
export async function readSystemStatus(http: HttpClient, apiRoot: string): Promise<ArrStatus | undefined> {
  const action = `tell which app it is (GET ${apiRoot}/system/status)`;
  const answer = await http.call("GET", "/system/status", action, { pass: [404] });
  return answer.status === 404 ? undefined : http.readJson(answer, action, readStatus);
}

function readStatus(data: unknown): ArrStatus {
  if (!isFields(data) || typeof data.appName !== "string") throw new Error("system/status has no appName");
  const version = typeof data.version === "string" ? data.version : "unknown";
  const instanceName = typeof data.instanceName === "string" && data.instanceName !== "" ? data.instanceName : undefined;
  return { appName: data.appName, version, instanceName };
}
