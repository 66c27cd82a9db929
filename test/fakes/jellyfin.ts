import type { IncomingMessage, ServerResponse } from "node:http";
import type { TaskInfo } from "@jellyfin/sdk/lib/generated-client/models/task-info.js";
import type { TaskState } from "@jellyfin/sdk/lib/generated-client/models/task-state.js";
import type { VirtualFolderInfo } from "@jellyfin/sdk/lib/generated-client/models/virtual-folder-info.js";
import type { FakeScans, FakeScanTiming } from "./media-scans.js";
import { FakeItems } from "./media-items.js";
import { createWaiter, sendJson, sendProblem, startLoopback, type Availability, type FakeRequest } from "./loopback.js";
import {
  addLibraryItems,
  DEFAULT_MEDIA_LIBRARIES,
  field,
  readMediaUpdated,
  refreshedItemId,
  type FakeLibrary,
  type RecordedUpdate,
} from "./media-browser.js";

export interface FakeJellyfinOptions {
  /** An API key: every endpoint. */
  token?: string;
  /** A plain user's token: Media/Updated and `GET /Items` work; VirtualFolders and item refreshes answer 403. */
  userToken?: string;
  libraries?: FakeLibrary[];
  /** Installs the targeted-scans plugin (`POST /Library/ScanPath`). */
  plugin?: boolean;
  /** EnableLegacyAuthorization (10.11 default true; v12 forces false, the default here). */
  legacyAuthorization?: boolean;
  /** How long a scan takes, on whose clock, and the LibraryMonitorDelay (media-scans.ts); by default 0 ms on Date.now, no delay. */
  scanTiming?: FakeScanTiming;
}

export interface FakeJellyfinRequest {
  method: string;
  url: string;
  /** How the request authenticated: the MediaBrowser Authorization header, a legacy form, or not at all. */
  auth: "authorization" | "legacy" | "none";
}

/** What a ScanPath call for a path answers: the plugin's statuses (apis.md / targeted-scans README). */
export type ScanPathStatus = "Created" | "Refreshed" | "PathNotFound" | "ParentNotFound" | "Failed";

export interface FakeJellyfin {
  url: string;
  token: string;
  userToken: string;
  /** Accepted Media/Updated calls, each with its entries. */
  mediaUpdates: RecordedUpdate[][];
  /** Accepted Media/Updated calls with an empty Updates list: nothing to look at, so not in mediaUpdates (doctor's access check). */
  readonly emptyUpdates: number;
  /** Paths accepted by ScanPath (Created or Refreshed), in order. */
  scanPaths: string[];
  /** The Path of every ScanPath call that reached the plugin, accepted or not ("" when missing). */
  scanPathCalls: string[];
  /** Every request that arrived, answered or not (down, hanging). */
  requests: FakeJellyfinRequest[];
  /** Items with paths (`GET /Items`) and the recorded `POST /Items/{id}/Refresh` calls. */
  items: FakeItems;
  /** An item the server already holds at `path` (in the library whose location holds it, with its folders); returns its id. */
  addItem(path: string): string;
  /** The scans Media/Updated and item refreshes start: how long they take, the disk they look at, what the server never lists. */
  scans: FakeScans;
  setLibraries(libraries: FakeLibrary[]): void;
  setPlugin(installed: boolean): void;
  /** Makes ScanPath answer `status` for `path` (Created by default). */
  setScanPathStatus(path: string, status: ScanPathStatus): void;
  setAvailability(next: Availability): Promise<void>;
  /** Resolves once `count` Media/Updated calls were accepted. */
  waitForMediaUpdates(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves once `count` item refreshes were accepted. */
  waitForRefreshes(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A Jellyfin server on 127.0.0.1 that checks what the real one checks
 * (apis.md §4.1): the token in `Authorization: MediaBrowser Token="…"` (the
 * legacy headers and `api_key` only with legacyAuthorization; `?ApiKey=`
 * always), 401 without it, 403 for a non-admin on VirtualFolders, 415/400 for
 * a Media/Updated body that is not JSON or lacks `Updates`, 204 on success.
 */
export async function startFakeJellyfin(options: FakeJellyfinOptions = {}): Promise<FakeJellyfin> {
  const token = options.token ?? "jellyfin-api-key-0123456789abcdef";
  const userToken = options.userToken ?? "jellyfin-user-token-fedcba9876543210";
  let libraries = options.libraries ?? DEFAULT_MEDIA_LIBRARIES;
  let plugin = options.plugin ?? false;
  const scanPathStatus = new Map<string, ScanPathStatus>();
  const mediaUpdates: RecordedUpdate[][] = [];
  let emptyUpdates = 0;
  const scanPaths: string[] = [];
  const scanPathCalls: string[] = [];
  const requests: FakeJellyfinRequest[] = [];
  let accepted = 0;
  const waiter = createWaiter();
  const items = new FakeItems(false, () => libraries);
  addLibraryItems(items, libraries, (index) => (libraries[index] as FakeLibrary).id);
  const addItem = (path: string) => items.add(path);
  const scans = items.scans;
  if (options.scanTiming) scans.timing = options.scanTiming;

  const identify = ({ req, url }: FakeRequest) => {
    const presented = readToken(req, url, options.legacyAuthorization ?? false);
    const who = presented.token === token ? "admin" : presented.token === userToken ? "user" : "none";
    return { who, via: who === "none" ? "none" : presented.via } as const;
  };
  const observe = (request: FakeRequest): void => {
    requests.push({ method: request.req.method ?? "GET", url: request.req.url ?? "/", auth: identify(request).via });
  };
  const handle = (request: FakeRequest, res: ServerResponse): void => {
    const { req, url } = request;
    const { who } = identify(request);
    const route = `${req.method} ${url.pathname.toLowerCase()}`;
    if (route === "GET /system/info/public") return sendJson(res, 200, { ServerName: "fake-jellyfin", Version: "10.11.0" });
    const refreshId = req.method === "POST" ? refreshedItemId(url.pathname.toLowerCase(), url.pathname) : undefined;
    if (!KNOWN_ROUTES.has(route) && !(plugin && route === "POST /library/scanpath") && refreshId === undefined) return sendJson(res, 404);
    if (who === "none") return sendProblem(res, 401, "Unauthorized");
    if (route === "GET /items") return items.answerList(request, res);
    if (refreshId !== undefined) {
      // Refreshing an item is an administrator's action (RequiresElevation).
      if (who !== "admin") return sendProblem(res, 403, "Forbidden");
      items.answerRefresh(request, res, refreshId, 204);
      return waiter.notify();
    }
    if (route === "GET /library/virtualfolders") {
      if (who !== "admin") return sendProblem(res, 403, "Forbidden");
      scans.settle();
      return sendJson(
        res,
        200,
        libraries.map((library) => renderVirtualFolder(library, scans)),
      );
    }
    if (route === "GET /scheduledtasks") {
      // Scheduled tasks are an administrator's (RequiresElevation).
      if (who !== "admin") return sendProblem(res, 403, "Forbidden");
      scans.settle();
      return sendJson(res, 200, renderTasks(scans.libraryScanRunning));
    }
    if (route === "GET /system/info") return sendJson(res, 200, { ServerName: "fake-jellyfin", Version: "10.11.0", Id: "fakejellyfin" });
    if (route === "POST /library/media/updated") {
      const read = readMediaUpdated(request);
      if ("status" in read) return sendProblem(res, read.status, read.title);
      if (read.updates.length === 0) emptyUpdates += 1;
      else mediaUpdates.push(read.updates);
      scans.report(read.updates.map((u) => u.path));
      waiter.notify();
      return sendJson(res, 204);
    }
    answerScanPath(request, res, scanPathStatus, { accepted: scanPaths, calls: scanPathCalls });
    // The plugin creates or refreshes the item at once, without the LibraryMonitorDelay.
    if (scanPaths.length > accepted) scans.refresh(scanPaths.slice(accepted));
    accepted = scanPaths.length;
  };

  const server = await startLoopback(handle, observe, { server: "jellyfin", label: "Jellyfin" });
  return {
    url: server.url,
    token,
    userToken,
    mediaUpdates,
    get emptyUpdates() {
      return emptyUpdates;
    },
    scanPaths,
    scanPathCalls,
    requests,
    items,
    addItem,
    scans,
    setLibraries(next) {
      libraries = next;
    },
    setPlugin(installed) {
      plugin = installed;
    },
    setScanPathStatus(path, status) {
      scanPathStatus.set(path, status);
    },
    setAvailability: (next) => server.setAvailability(next),
    waitForMediaUpdates: (count, timeoutMs) =>
      waiter.waitFor(() => mediaUpdates.length >= count, `${count} Media/Updated calls (saw ${mediaUpdates.length})`, timeoutMs),
    waitForRefreshes: (count, timeoutMs) =>
      waiter.waitFor(() => items.refreshes.length >= count, `${count} item refreshes (saw ${items.refreshes.length})`, timeoutMs),
    close: () => server.close(),
  };
}

const KNOWN_ROUTES = new Set([
  "GET /library/virtualfolders",
  "POST /library/media/updated",
  "GET /system/info",
  "GET /items",
  "GET /scheduledtasks",
]);

function answerScanPath(
  request: FakeRequest,
  res: ServerResponse,
  statuses: Map<string, ScanPathStatus>,
  record: { accepted: string[]; calls: string[] },
): void {
  let data: unknown;
  try {
    data = JSON.parse(request.body);
  } catch {
    return sendProblem(res, 400, "The request body is not valid JSON.");
  }
  const path = field(data, "Path");
  record.calls.push(typeof path === "string" ? path : "");
  // [Required] on Path rejects a missing or empty string before the action runs.
  if (typeof path !== "string" || path.trim() === "") return sendProblem(res, 400, "The Path field is required.");
  const status = statuses.get(path) ?? "Created";
  if (status === "PathNotFound" || status === "ParentNotFound")
    return sendJson(res, 404, { Status: status, Message: `no item for ${path}` });
  if (status === "Failed") return sendJson(res, 500, { Status: status, Message: `Failed to scan path: ${path}` });
  record.accepted.push(path);
  sendJson(res, 200, { ItemId: "0123456789abcdef0123456789abcdef", ItemName: path.split("/").pop(), Status: status, Message: "queued" });
}

/** A library as `GET /Library/VirtualFolders` lists it; while a scan touches it, "Active" with its progress, as Jellyfin reports a folder's refresh. */
function renderVirtualFolder(library: FakeLibrary, scans: FakeScans): VirtualFolderInfo {
  const active = library.locations.some((location) => scans.scanning(location));
  return {
    Name: library.name,
    Locations: library.locations,
    ...(library.collectionType ? { CollectionType: library.collectionType as VirtualFolderInfo["CollectionType"] } : {}),
    LibraryOptions: { Enabled: true, EnableRealtimeMonitor: false },
    ItemId: library.id,
    ...(active ? { RefreshStatus: "Active", RefreshProgress: 50 } : { RefreshStatus: "Idle" }),
  };
}

/** `GET /ScheduledTasks`: the library scan task ("RefreshLibrary") and one other, as Jellyfin 10.10 lists them. */
function renderTasks(libraryScanRunning: boolean): TaskInfo[] {
  const task = (key: string, name: string, running: boolean): TaskInfo => ({
    Name: name,
    // task-info.d.ts imports its enums without an extension, which this project's resolution leaves untyped: named here.
    State: (running ? "Running" : "Idle") satisfies TaskState,
    ...(running ? { CurrentProgressPercentage: 42.5 } : {}),
    Id: `${key.toLowerCase()}0123456789abcdef0123456789`.slice(0, 32),
    Triggers: [],
    Description: name,
    Category: "Library",
    IsHidden: false,
    Key: key,
  });
  return [task("RefreshLibrary", "Scan Media Library", libraryScanRunning), task("CleanCache", "Clean Cache Directory", false)];
}

/** The token and where it came from, in the order AuthorizationContext reads them. */
function readToken(req: IncomingMessage, url: URL, legacy: boolean): { token: string | undefined; via: "authorization" | "legacy" } {
  const fromAuthorization = parseMediaBrowser(req.headers.authorization, legacy);
  if (fromAuthorization !== undefined) return { token: fromAuthorization, via: "authorization" };
  const apiKey = url.searchParams.get("ApiKey");
  if (apiKey) return { token: apiKey, via: "authorization" };
  if (!legacy) return { token: undefined, via: "legacy" };
  const header = (name: string): string | undefined => {
    const value = req.headers[name];
    return typeof value === "string" ? value : undefined;
  };
  const token =
    parseMediaBrowser(header("x-emby-authorization"), true) ??
    header("x-emby-token") ??
    header("x-mediabrowser-token") ??
    url.searchParams.get("api_key") ??
    undefined;
  return { token, via: "legacy" };
}

/** `MediaBrowser Token="…", Client="…"`: the Token parameter, or undefined. The `Emby` scheme is legacy. */
function parseMediaBrowser(value: string | undefined, legacy: boolean): string | undefined {
  const match = /^\s*(MediaBrowser|Emby)\s+(.*)$/i.exec(value ?? "");
  if (!match || (match[1]?.toLowerCase() === "emby" && !legacy)) return undefined;
  for (const [, name, quoted] of (match[2] ?? "").matchAll(/([A-Za-z]+)="([^"]*)"/g)) {
    if (name?.toLowerCase() === "token") return quoted;
  }
  return undefined;
}
