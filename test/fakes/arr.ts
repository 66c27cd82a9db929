import type { ServerResponse } from "node:http";
import { downloadPayload, FAKE_ARR_APP_NAMES, testPayload, type FakeArrItem, type FakeArrKind } from "./arr-payloads.js";
import { FLAGS, schemaEntry } from "./arr-schema.js";
import { sendJson, startLoopback, type Availability, type FakeRequest } from "./loopback.js";

export type { FakeArrKind } from "./arr-payloads.js";

export interface FakeArrOptions {
  kind: FakeArrKind;
  apiKey?: string;
  version?: string;
  instanceName?: string;
  /** The app's URL base (Settings → General), e.g. "/sonarr"; "" by default. */
  urlBase?: string;
  rootFolders?: string[];
  /** Item folders (series, movies, artists, authors), each under a root folder. */
  items?: string[];
  /** Event flags this version lacks: their `supportsOn*` is false in the schema. */
  unsupported?: string[];
}

export type Resource = Record<string, unknown> & { id: number };

/** One delivery of a webhook by the fake: the Test of a save or a test call, or an event. */
export interface FakeArrDelivery {
  url: string;
  eventType: string;
  /** The receiver's status, or 0 when it did not answer. */
  status: number;
}

export interface FakeArr {
  kind: FakeArrKind;
  /** The app's address, URL base included. */
  url: string;
  apiKey: string;
  /** The stored connections (notification resources), as the app holds them. */
  notifications: Resource[];
  /** "METHOD path?query" of every API request, answered or not. */
  requests: string[];
  /** Every webhook the fake sent. */
  deliveries: FakeArrDelivery[];
  /**
   * Sends a Download of `fileName` into item `itemIndex`'s folder to every
   * connection with its import event ticked, as the app does after an import.
   */
  sendDownload(itemIndex?: number, fileName?: string): Promise<FakeArrDelivery[]>;
  setAvailability(next: Availability): Promise<void>;
  close(): Promise<void>;
}

const API_ROOT: Record<FakeArrKind, string> = { sonarr: "/api/v3", radarr: "/api/v3", lidarr: "/api/v1", readarr: "/api/v1" };
const ITEMS: Record<FakeArrKind, string> = { sonarr: "/series", radarr: "/movie", lidarr: "/artist", readarr: "/author" };
const IMPORT_FLAG: Record<FakeArrKind, string> = {
  sonarr: "onDownload",
  radarr: "onDownload",
  lidarr: "onReleaseImport",
  readarr: "onReleaseImport",
};

const DEFAULT_ROOTS: Record<FakeArrKind, string> = { sonarr: "/tv", radarr: "/movies", lidarr: "/music", readarr: "/books" };
const DEFAULT_ITEMS: Record<FakeArrKind, string[]> = {
  sonarr: ["/tv/The Expanse", "/tv/Westworld", "/tv/Severance"],
  radarr: ["/movies/Interstellar (2014)", "/movies/Parasite (2019)"],
  lidarr: ["/music/blink-182", "/music/Marshmello"],
  readarr: ["/books/Brandon Sanderson"],
};

/**
 * Sonarr, Radarr, Lidarr or Readarr on 127.0.0.1, from round3.md §3 and
 * apis.md §5: `X-Api-Key` (or `?apikey=`) on every /api call, else 401;
 * system/status, rootfolder, the items with their paths; connections (list,
 * schema, create, update, test, delete) where a save with any event ticked
 * first sends the Test event to the URL and answers 400 with a JSON array
 * of validation failures when that fails, unless `forceSave=true`.
 */
export async function startFakeArr(options: FakeArrOptions): Promise<FakeArr> {
  const { kind } = options;
  const apiKey = options.apiKey ?? `${kind}-api-key-0123456789abcdef`;
  const appName = FAKE_ARR_APP_NAMES[kind];
  const instanceName = options.instanceName ?? appName;
  const urlBase = options.urlBase ?? "";
  const roots = options.rootFolders ?? [DEFAULT_ROOTS[kind]];
  const items: FakeArrItem[] = (options.items ?? DEFAULT_ITEMS[kind]).map((path, i) => ({
    id: i + 1,
    title: path.split("/").pop() ?? path,
    path,
  }));
  const notifications: Resource[] = [];
  const requests: string[] = [];
  const deliveries: FakeArrDelivery[] = [];
  let nextId = 1;

  const deliver = async (url: string, payload: Record<string, unknown>, resource: Resource): Promise<FakeArrDelivery> => {
    const headers: Record<string, string> = { "Content-Type": "application/json", "User-Agent": `${appName}/4.0.19.2979 (ubuntu 24.04)` };
    const username = fieldOf(resource, "username");
    if (typeof username === "string" && username !== "")
      headers.Authorization = `Basic ${Buffer.from(`${username}:${String(fieldOf(resource, "password") ?? "")}`, "latin1").toString("base64")}`;
    const delivery: FakeArrDelivery = { url, eventType: String(payload.eventType), status: 0 };
    try {
      const method = Number(fieldOf(resource, "method")) === 2 ? "PUT" : "POST";
      const answer = await fetch(url, { method, headers, body: JSON.stringify(payload, null, 2), signal: AbortSignal.timeout(10_000) });
      await answer.body?.cancel();
      delivery.status = answer.status;
    } catch {
      delivery.status = 0;
    }
    deliveries.push(delivery);
    return delivery;
  };

  /** The webhook test (WebhookBase.Test): a failure is the Url field's validation failure, as the app reports it. */
  const runTest = async (resource: Resource): Promise<unknown[] | undefined> => {
    const url = fieldOf(resource, "url");
    if (typeof url !== "string" || !URL.canParse(url)) return [failure("Url", "'Url' must be a valid URL", url)];
    const sent = await deliver(url, testPayload(kind, instanceName), resource);
    if (sent.status >= 200 && sent.status < 300) return undefined;
    const reason =
      sent.status === 0 ? `Connection refused (${new URL(url).host})` : `HTTP request failed: [${sent.status}] [POST] at [${url}]`;
    return [failure("Url", `Unable to send test message: ${reason}`, url)];
  };

  const save = async (res: ServerResponse, body: string, force: boolean, previous?: Resource): Promise<void> => {
    const incoming = parseObject(body);
    if (incoming === undefined) return sendJson(res, 400, [failure("", "The request body is not a notification resource", undefined)]);
    if (incoming.implementation !== "Webhook" && incoming.implementation !== "Discord")
      return sendJson(res, 400, [failure("Implementation", "Unknown implementation", incoming.implementation)]);
    if (typeof incoming.name !== "string" || incoming.name.trim() === "")
      return sendJson(res, 400, [failure("Name", "'Name' must not be empty.", incoming.name)]);
    const resource: Resource = { ...incoming, id: previous?.id ?? nextId++ };
    const anyEvent = FLAGS[kind].some((flag) => resource[flag] === true);
    // PUT re-tests only when something changed (round3.md §3).
    const changed = previous === undefined || JSON.stringify({ ...previous }) !== JSON.stringify(resource);
    if (anyEvent && changed && !force) {
      const failures = await runTest(resource);
      if (failures) return sendJson(res, 400, failures);
    }
    if (previous) notifications[notifications.indexOf(previous)] = resource;
    else notifications.push(resource);
    sendJson(res, previous ? 202 : 201, resource);
  };

  const handle = ({ req, url, body }: FakeRequest, res: ServerResponse): void => {
    const method = req.method ?? "GET";
    if (!url.pathname.startsWith(`${urlBase}/api/`)) return sendJson(res, 404, { message: "NotFound" });
    const key = req.headers["x-api-key"] ?? url.searchParams.get("apikey");
    if (key !== apiKey) {
      res.writeHead(401);
      res.end();
      return;
    }
    const apiRoot = `${urlBase}${API_ROOT[kind]}`;
    if (!url.pathname.startsWith(`${apiRoot}/`)) return sendJson(res, 404, { message: "NotFound" });
    const path = url.pathname.slice(apiRoot.length).toLowerCase();
    const force = url.searchParams.get("forceSave") === "true";
    const byId = /^\/notification\/(\d+)$/.exec(path);
    const found = byId ? notifications.find((n) => n.id === Number(byId[1])) : undefined;
    const route = `${method} ${byId ? "/notification/{id}" : path}`;
    switch (route) {
      case "GET /system/status":
        return sendJson(res, 200, { appName, instanceName, version: options.version ?? "4.0.19.2979", urlBase, isDocker: true });
      case "GET /rootfolder":
        return sendJson(
          res,
          200,
          roots.map((p, i) => ({
            id: i + 1,
            path: p,
            accessible: true,
            freeSpace: 1e12,
            // Only Sonarr's and Radarr's RootFolderResource (API v3) have unmappedFolders; Lidarr's and Readarr's (v1) do not.
            ...(API_ROOT[kind] === "/api/v3" ? { unmappedFolders: [] } : {}),
            ...(API_ROOT[kind] === "/api/v1" ? { name: p } : {}),
          })),
        );
      case `GET ${ITEMS[kind]}`:
        return sendJson(
          res,
          200,
          // Readarr's AuthorResource names it authorName and has no title.
          items.map((item) => ({
            id: item.id,
            [kind === "readarr" ? "authorName" : "title"]: item.title,
            path: item.path,
            monitored: true,
          })),
        );
      case "GET /notification":
        return sendJson(res, 200, notifications);
      case "GET /notification/schema":
        return sendJson(res, 200, [schemaEntry(kind, "Webhook", options.unsupported), schemaEntry(kind, "Discord", options.unsupported)]);
      case "POST /notification":
        void save(res, body, force);
        return;
      case "POST /notification/test": {
        const resource = parseObject(body);
        if (resource === undefined) return sendJson(res, 400, [failure("", "The request body is not a notification resource", undefined)]);
        void runTest({ ...resource, id: 0 }).then((failures) => (failures ? sendJson(res, 400, failures) : sendJson(res, 200, {})));
        return;
      }
      case "PUT /notification/{id}":
      case "DELETE /notification/{id}":
        if (found === undefined) return sendJson(res, 404, { message: "NotFound" });
        if (method === "PUT") {
          void save(res, body, force, found);
          return;
        }
        notifications.splice(notifications.indexOf(found), 1);
        return sendJson(res, 200, {});
      default:
        return sendJson(res, 404, { message: "NotFound" });
    }
  };

  const server = await startLoopback(handle, ({ req, url }) => requests.push(`${req.method} ${url.pathname}${url.search}`), {
    server: kind,
    label: appName,
    pathOf: (url) => (url.pathname.startsWith(`${urlBase}/`) ? url.pathname.slice(urlBase.length) : undefined),
  });
  return {
    kind,
    url: server.url + urlBase,
    apiKey,
    notifications,
    requests,
    deliveries,
    async sendDownload(itemIndex = 0, fileName = "Episode S01E04.mkv") {
      const item = items[itemIndex];
      if (item === undefined) throw new Error(`the fake ${appName} has no item ${itemIndex}`);
      const connected = notifications.filter((n) => n.implementation === "Webhook" && n[IMPORT_FLAG[kind]] === true);
      const url = (n: Resource) => String(fieldOf(n, "url"));
      return Promise.all(connected.map((n) => deliver(url(n), downloadPayload(kind, instanceName, item, fileName), n)));
    },
    setAvailability: (next) => server.setAvailability(next),
    close: () => server.close(),
  };
}

function failure(propertyName: string, errorMessage: string, attemptedValue: unknown): Record<string, unknown> {
  return { isWarning: false, propertyName, errorMessage, attemptedValue, severity: "error" };
}

function fieldOf(resource: Record<string, unknown>, name: string): unknown {
  const fields = Array.isArray(resource.fields) ? (resource.fields as Array<Record<string, unknown>>) : [];
  return fields.find((f) => f.name === name)?.value;
}

function parseObject(body: string): Record<string, unknown> | undefined {
  try {
    const data: unknown = JSON.parse(body);
    return typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
