import { isFields } from "../http/client.js";

/** A connection (`notification` resource) as the app sends it: kept whole, so an update changes only what scanarr owns. */
export type NotificationResource = Record<string, unknown> & { id?: number; name?: string; implementation?: string };

/** The name scanarr gives its connection, and finds it by. */
export const DEFAULT_CONNECTION_NAME = "scanarr";

/** Method field values of WebhookSettings: 1 = POST, 2 = PUT. */
const METHOD_POST = 1;

export function readResources(data: unknown): NotificationResource[] {
  if (!Array.isArray(data)) throw new Error("expected a JSON array");
  return data.filter(isFields) as NotificationResource[];
}

export function readResource(data: unknown): NotificationResource {
  if (!isFields(data)) throw new Error("expected a JSON object");
  return data as NotificationResource;
}

/** The value of one of the resource's `fields` (`url`, `method`, …). */
export function fieldValue(resource: NotificationResource, name: string): unknown {
  const fields = Array.isArray(resource.fields) ? resource.fields : [];
  const field = fields.find((f): f is Record<string, unknown> => isFields(f) && f.name === name);
  return field?.value;
}

function withField(resource: NotificationResource, name: string, value: unknown): NotificationResource {
  const fields = Array.isArray(resource.fields) ? resource.fields : [];
  const present = fields.some((f) => isFields(f) && f.name === name);
  const next = present ? fields.map((f) => (isFields(f) && f.name === name ? { ...f, value } : f)) : [...fields, { name, value }];
  return { ...resource, fields: next };
}

/** Every event flag of the resource (`onDownload`, …), not the read-only `supportsOn*` ones. */
export function eventFlags(resource: NotificationResource): string[] {
  return Object.keys(resource).filter((key) => /^on[A-Z]/.test(key) && typeof resource[key] === "boolean");
}

/** The event flags that are on. */
export function tickedEvents(resource: NotificationResource): string[] {
  return eventFlags(resource).filter((flag) => resource[flag] === true);
}

/** Whether the app supports `flag` on this resource (an absent `supportsOnX` counts as supported). */
function supports(resource: NotificationResource, flag: string): boolean {
  return resource[`supports${flag[0]?.toUpperCase()}${flag.slice(1)}`] !== false;
}

/**
 * `base` (the schema's Webhook template, or the connection found) turned
 * into scanarr's connection: its name, POST to `webhookUrl`, exactly the
 * wanted events that the app supports ticked and every other event off.
 * Everything else (tags, user name, headers) is kept. Also returns the
 * wanted events the app does not support.
 */
export function buildWebhook(
  base: NotificationResource,
  options: { name: string; webhookUrl: string; events: readonly string[] },
): { resource: NotificationResource; unsupported: string[] } {
  let resource: NotificationResource = {
    ...base,
    name: options.name,
    implementation: "Webhook",
    configContract: "WebhookSettings",
    tags: Array.isArray(base.tags) ? base.tags : [],
  };
  resource = withField(withField(resource, "url", options.webhookUrl), "method", METHOD_POST);
  const unsupported = options.events.filter((flag) => !supports(base, flag));
  const flags = new Set([...eventFlags(base), ...options.events]);
  for (const flag of flags) resource[flag] = options.events.includes(flag) && supports(base, flag);
  return { resource, unsupported };
}

/** Whether `next` would change nothing scanarr owns in `current`: name, URL, method and events. */
export function sameWebhook(current: NotificationResource, next: NotificationResource): boolean {
  if (current.name !== next.name) return false;
  if (fieldValue(current, "url") !== fieldValue(next, "url")) return false;
  if (Number(fieldValue(current, "method")) !== METHOD_POST) return false;
  const flags = new Set([...eventFlags(current), ...eventFlags(next)]);
  return [...flags].every((flag) => (current[flag] === true) === (next[flag] === true));
}

/** Host (with port) and path of a URL, for "does this connection point at scanarr"; undefined when it is not a URL. */
export function hostAndPath(url: unknown): { host: string; path: string } | undefined {
  if (typeof url !== "string" || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return { host: parsed.host.toLowerCase(), path: parsed.pathname.replace(/\/+$/, "") };
}

/**
 * The Webhook connections that are scanarr's: first those whose URL has the
 * same host and path as `webhookUrl`, then those of that path on another host
 * (the same pass, scanarr reached by another name), then those named `name`.
 */
export function findOurs(resources: readonly NotificationResource[], webhookUrl: string, name: string): NotificationResource[] {
  const target = hostAndPath(webhookUrl);
  const webhooks = resources.filter((r) => r.implementation === "Webhook");
  const rank = (r: NotificationResource): number => {
    const at = hostAndPath(fieldValue(r, "url"));
    if (target && at && at.path === target.path && at.host === target.host) return 0;
    if (target && at && at.path === target.path && target.path !== "") return 1;
    if (r.name === name) return 2;
    return 3;
  };
  return webhooks
    .map((r) => ({ r, rank: rank(r) }))
    .filter((entry) => entry.rank < 3)
    .sort((a, b) => a.rank - b.rank)
    .map((entry) => entry.r);
}
