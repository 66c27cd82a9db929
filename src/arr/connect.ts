import { TargetFatalError } from "../domain.js";
import { isFields, type HttpAnswer, type HttpClient } from "../http/client.js";
import { appHttp, type ArrApp, type ArrCallOptions } from "./client.js";
import { ARR_KIND_INFO } from "./kinds.js";
import {
  buildWebhook,
  DEFAULT_CONNECTION_NAME,
  fieldValue,
  findOurs,
  readResource,
  readResources,
  sameWebhook,
  tickedEvents,
  type NotificationResource,
} from "./webhook-resource.js";

export interface ConnectOptions extends ArrCallOptions {
  /** Where the app posts: scanarr's webhook URL (it holds SERVER_PASS). */
  webhookUrl: string;
  /** The connection's name in the app; "scanarr" by default. */
  name?: string;
  /**
   * true: the app sends its Test event to the URL before saving and refuses
   * (400 with reasons) when that fails; use it when scanarr is running.
   * false: saved with `forceSave=true`, nothing proves the URL.
   */
  test: boolean;
}

export interface ConnectResult {
  action: "created" | "updated" | "unchanged";
  /** The connection's id in the app. */
  id: number;
  /** The event flags now ticked. */
  events: string[];
  /** Whether the app's own test reached the URL. */
  tested: boolean;
  /** What the user should know: saved untested, events the app lacks, other connections to scanarr. */
  note?: string;
}

/** The app refused to save because its test of the URL failed; `reasons` are its validation failures. */
export class ArrTestFailedError extends TargetFatalError {
  override name = "ArrTestFailedError";
  constructor(
    message: string,
    readonly reasons: string[],
  ) {
    super(message);
  }
}

/**
 * Creates or updates the app's Webhook connection to scanarr (never a second
 * one): the one whose URL points at the same host and path, else the one
 * named `name`. Exactly the app's file-changing events are ticked
 * (ARR_KIND_INFO.fileEvents). A connection already as wanted is left alone
 * (and, with `test`, tested through `notification/test`).
 */
export async function connectArr(app: ArrApp, options: ConnectOptions): Promise<ConnectResult> {
  const info = ARR_KIND_INFO[app.kind];
  const name = options.name ?? DEFAULT_CONNECTION_NAME;
  const http = appHttp(app, { ...options, secrets: pathSecrets(options.webhookUrl) });
  const listAction = "list its connections (notification)";
  const existing = http.readJson(await http.call("GET", "/notification", listAction), listAction, readResources);
  const [ours, ...others] = findOurs(existing, options.webhookUrl, name);
  const base = ours ?? (await webhookTemplate(http, info.appName));
  const { resource, unsupported } = buildWebhook(base, { name, webhookUrl: options.webhookUrl, events: info.fileEvents });
  const notes: string[] = [];
  if (unsupported.length > 0) notes.push(`this ${info.appName} has no ${unsupported.join(", ")} event; left out`);
  if (others.length > 0)
    notes.push(
      `${others.length} other connection(s) also point at scanarr (id ${others.map((o) => o.id).join(", ")}); delete them in Settings > Connect`,
    );

  let action: ConnectResult["action"];
  let saved: NotificationResource;
  if (ours !== undefined && sameWebhook(ours, resource)) {
    action = "unchanged";
    saved = ours;
    if (options.test) await send(http, "POST", "/notification/test", "test the connection (notification/test)", resource, info.appName);
  } else {
    action = ours === undefined ? "created" : "updated";
    const query = options.test ? "" : "?forceSave=true";
    const path = ours === undefined ? `/notification${query}` : `/notification/${String(ours.id)}${query}`;
    const what = ours === undefined ? "add the connection" : `update connection ${String(ours.id)}`;
    const answer = await send(http, ours === undefined ? "POST" : "PUT", path, what, resource, info.appName);
    saved = http.readJson(answer, what, readResource);
  }
  if (!options.test)
    notes.push("saved without the app's test (scanarr is not running), so nothing proved the URL yet; the app's Test button checks it");
  const id = typeof saved.id === "number" ? saved.id : Number(ours?.id);
  return { action, id, events: tickedEvents(saved), tested: options.test, ...(notes.length > 0 ? { note: notes.join("; ") } : {}) };
}

/** The schema's Webhook template: what this version of the app expects a new connection to hold. */
async function webhookTemplate(http: HttpClient, appName: string): Promise<NotificationResource> {
  const action = "read the connection templates (notification/schema)";
  const schema = http.readJson(await http.call("GET", "/notification/schema", action), action, readResources);
  const template = schema.find((entry) => entry.implementation === "Webhook");
  if (template === undefined) throw new TargetFatalError(`${appName} at ${http.where} offers no Webhook connection`);
  return template;
}

/** A write the app may refuse with 400 and its validation failures (the failed test among them). */
async function send(
  http: HttpClient,
  method: "POST" | "PUT",
  path: string,
  action: string,
  resource: NotificationResource,
  appName: string,
): Promise<HttpAnswer> {
  const answer = await http.call(method, path, action, { json: resource, pass: [400] });
  if (answer.status !== 400) return answer;
  const reasons = readReasons(answer.text);
  const said = `${appName} at ${http.where} refused to ${action}: ${reasons.join("; ")}`;
  throw http.redacted(
    new ArrTestFailedError(
      said,
      reasons.map((reason) => http.redacted(new Error(reason)).message),
    ),
  );
}

/** The messages of a 400's validation failures (`[{propertyName, errorMessage, …}]`); never the attempted values, which hold the URL. */
export function readReasons(text: string): string[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return [text.trim() === "" ? "400 without a reason" : text.trim().slice(0, 300)];
  }
  const list = Array.isArray(data) ? data : [data];
  const reasons = list.flatMap((entry) => {
    if (!isFields(entry)) return [];
    const message = typeof entry.errorMessage === "string" ? entry.errorMessage : typeof entry.message === "string" ? entry.message : "";
    if (message === "") return [];
    const detail =
      typeof entry.detailedDescription === "string" && entry.detailedDescription !== "" ? ` (${entry.detailedDescription})` : "";
    const on = typeof entry.propertyName === "string" && entry.propertyName !== "" ? `${entry.propertyName}: ` : "";
    return [`${on}${message}${detail}`];
  });
  return reasons.length > 0 ? reasons : ["400 without a reason"];
}

/** The webhook URL's path segments (SERVER_PASS), as written and decoded: never shown in a message. */
function pathSecrets(webhookUrl: string): string[] {
  if (!URL.canParse(webhookUrl)) return [webhookUrl];
  const segments = new URL(webhookUrl).pathname.split("/").filter((s) => s !== "");
  return segments.flatMap((s) => [s, safeDecode(s)]);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** One Webhook connection of an app that points at scanarr. */
export interface ArrConnection {
  id: number;
  name: string;
  /** The URL as the app holds it (it contains SERVER_PASS: mask it before showing). */
  url: string;
  /** The event flags ticked. */
  events: string[];
  /** File-changing events that are not ticked (scans missed). */
  missing: string[];
  /** Ticked events that change no file (requests scanarr ignores). */
  extra: string[];
}

/**
 * The app's Webhook connections whose URL starts with `scanarrUrlPrefix`'s
 * path (its pass), on any host: scanarr may be reached by another name.
 */
export async function listArrConnections(app: ArrApp, scanarrUrlPrefix: string, options: ArrCallOptions = {}): Promise<ArrConnection[]> {
  const info = ARR_KIND_INFO[app.kind];
  const http = appHttp(app, { ...options, secrets: pathSecrets(scanarrUrlPrefix) });
  const action = "list its connections (notification)";
  const all = http.readJson(await http.call("GET", "/notification", action), action, readResources);
  const prefix = URL.canParse(scanarrUrlPrefix) ? new URL(scanarrUrlPrefix).pathname.replace(/\/+$/, "") : scanarrUrlPrefix;
  return all.flatMap((resource) => {
    const url = fieldValue(resource, "url");
    if (resource.implementation !== "Webhook" || typeof url !== "string" || !URL.canParse(url)) return [];
    const path = new URL(url).pathname;
    if (prefix === "" || !(path === prefix || path.startsWith(`${prefix}/`))) return [];
    const events = tickedEvents(resource);
    return [
      {
        id: Number(resource.id),
        name: String(resource.name ?? ""),
        url,
        events,
        missing: info.fileEvents.filter((flag) => !events.includes(flag)),
        extra: events.filter((flag) => !info.fileEvents.includes(flag)),
      },
    ];
  });
}
