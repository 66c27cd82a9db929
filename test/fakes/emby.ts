import type { ServerResponse } from "node:http";
import { createWaiter, sendJson, sendProblem, startLoopback, type Availability, type FakeRequest } from "./loopback.js";
import {
  addLibraryItems,
  DEFAULT_MEDIA_LIBRARIES,
  readMediaUpdated,
  refreshedItemId,
  type FakeLibrary,
  type RecordedUpdate,
} from "./media-browser.js";
import { FakeItems } from "./media-items.js";
import type { FakeScans, FakeScanTiming } from "./media-scans.js";

export interface FakeEmbyOptions {
  token?: string;
  libraries?: FakeLibrary[];
  /** What a successful Media/Updated answers: 200 as the spec documents, or 204 as some versions do. */
  successStatus?: 200 | 204;
  /** How long a scan takes, on whose clock, and the LibraryMonitorDelay (media-scans.ts); by default 0 ms on Date.now, no delay. */
  scanTiming?: FakeScanTiming;
  /** Item refreshes answer 403 (a key the server does not let refresh items). */
  refreshForbidden?: boolean;
}

export interface FakeEmbyRequest {
  method: string;
  url: string;
  /** Whether the path went under the `/emby` base. */
  underEmby: boolean;
  tokenIn: "header" | "query" | "none";
}

export interface FakeEmby {
  url: string;
  token: string;
  mediaUpdates: RecordedUpdate[][];
  /** Accepted Media/Updated calls with an empty Updates list: nothing to look at, so not in mediaUpdates (doctor's access check). */
  readonly emptyUpdates: number;
  /** Every request that arrived, answered or not (down, hanging). */
  requests: FakeEmbyRequest[];
  /** Items with paths (`GET /Items`, by a library's `Id`) and the recorded `POST /Items/{id}/Refresh` calls. */
  items: FakeItems;
  /** An item the server already holds at `path` (in the library whose location holds it, with its folders); returns its id. */
  addItem(path: string): string;
  /** The scans Media/Updated and item refreshes start: how long they take, the disk they look at, what the server never lists. */
  scans: FakeScans;
  setLibraries(libraries: FakeLibrary[]): void;
  /** Item refreshes answer 403 from now on, or no longer (the key given an administrator's rights). */
  setRefreshForbidden(forbidden: boolean): void;
  setAvailability(next: Availability): Promise<void>;
  waitForMediaUpdates(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves once `count` item refreshes were accepted. */
  waitForRefreshes(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * An Emby server on 127.0.0.1 (apis.md §4.2): the API under `/emby` and at
 * the root alike, the key in `X-Emby-Token` or `?api_key=` (401 without it),
 * libraries from `GET /Library/SelectableMediaFolders`, `POST
 * /Library/Media/Updated` checked like the Jellyfin fake (415/400) and
 * answered 200 (or 204).
 */
export async function startFakeEmby(options: FakeEmbyOptions = {}): Promise<FakeEmby> {
  const token = options.token ?? "emby-api-key-0123456789abcdef";
  let libraries = options.libraries ?? DEFAULT_MEDIA_LIBRARIES;
  const mediaUpdates: RecordedUpdate[][] = [];
  let emptyUpdates = 0;
  const requests: FakeEmbyRequest[] = [];
  const waiter = createWaiter();
  // Emby's item ids of its libraries are its media folders' (the virtual folders' ItemId).
  const items = new FakeItems(true, () => libraries.map((library, index) => ({ ...library, id: mediaFolderId(index) })));
  addLibraryItems(items, libraries, mediaFolderId);
  const addItem = (path: string) => items.add(path);
  const scans = items.scans;
  if (options.scanTiming) scans.timing = options.scanTiming;

  const identify = ({ req, url }: FakeRequest) => {
    const underEmby = /^\/emby(\/|$)/i.test(url.pathname);
    const path = (underEmby ? url.pathname.slice(5) : url.pathname).toLowerCase();
    const tokenIn = req.headers["x-emby-token"] === token ? "header" : url.searchParams.get("api_key") === token ? "query" : "none";
    return { underEmby, path, tokenIn } as const;
  };
  const observe = (request: FakeRequest): void => {
    const { underEmby, tokenIn } = identify(request);
    requests.push({ method: request.req.method ?? "GET", url: request.req.url ?? "/", underEmby, tokenIn });
  };
  let refreshForbidden = options.refreshForbidden ?? false;
  const handle = (request: FakeRequest, res: ServerResponse): void => {
    const { req } = request;
    const { path, tokenIn } = identify(request);
    const route = `${req.method} ${path}`;
    if (route === "GET /system/info/public") return sendJson(res, 200, { ServerName: "fake-emby", Version: "4.8.11.0" });
    const original = /^\/emby(\/|$)/i.test(request.url.pathname) ? request.url.pathname.slice(5) : request.url.pathname;
    const refreshId = req.method === "POST" ? refreshedItemId(path, original) : undefined;
    if (!KNOWN_ROUTES.has(route) && refreshId === undefined) return sendJson(res, 404);
    if (tokenIn === "none") return sendProblem(res, 401, "Access token is invalid or expired.");
    if (route === "GET /items") return items.answerList(request, res);
    if (refreshId !== undefined) {
      if (refreshForbidden) return sendProblem(res, 403, "Forbidden");
      items.answerRefresh(request, res, refreshId, 200);
      return waiter.notify();
    }
    if (route === "GET /system/info") return sendJson(res, 200, { ServerName: "fake-emby", Version: "4.8.11.0", Id: "fakeemby" });
    if (route === "GET /library/selectablemediafolders") return sendJson(res, 200, libraries.map(renderMediaFolder));
    if (route === "GET /library/virtualfolders/query") {
      scans.settle();
      const folders = libraries.map((library, index) => renderVirtualFolder(library, index, scans));
      return sendJson(res, 200, { Items: folders, TotalRecordCount: folders.length });
    }
    if (route === "GET /scheduledtasks") {
      scans.settle();
      return sendJson(res, 200, renderTasks(scans.libraryScanRunning));
    }
    const read = readMediaUpdated(request);
    if ("status" in read) return sendProblem(res, read.status, read.title);
    if (read.updates.length === 0) emptyUpdates += 1;
    else mediaUpdates.push(read.updates);
    scans.report(read.updates.map((u) => u.path));
    waiter.notify();
    sendJson(res, options.successStatus ?? 200);
  };

  const server = await startLoopback(handle, observe, {
    server: "emby",
    label: "Emby",
    // The description's server is `…/emby`; the fake also answers at the root, as Emby does.
    pathOf: (url) => url.pathname.replace(/^\/emby(?=\/|$)/i, "") || "/",
  });
  return {
    url: server.url,
    token,
    mediaUpdates,
    get emptyUpdates() {
      return emptyUpdates;
    },
    requests,
    items,
    addItem,
    scans,
    setLibraries(next) {
      libraries = next;
    },
    setRefreshForbidden(forbidden) {
      refreshForbidden = forbidden;
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
  "GET /library/selectablemediafolders",
  "GET /library/virtualfolders/query",
  "GET /scheduledtasks",
  "POST /library/media/updated",
  "GET /system/info",
  "GET /items",
]);

/** Emby numbers its media folders; the fake's start at 3. */
function mediaFolderId(index: number): string {
  return String(index + 3);
}

function renderMediaFolder(library: FakeLibrary, index: number): Record<string, unknown> {
  return {
    Name: library.name,
    Id: mediaFolderId(index),
    Guid: library.id,
    SubFolders: library.locations.map((path, i) => ({ Name: path.split("/").pop(), Id: String(100 * (index + 1) + i), Path: path })),
  };
}

/** `GET /Library/VirtualFolders/Query`'s entry: the media folder's ids, and "Active" with a progress while a scan touches it. */
function renderVirtualFolder(library: FakeLibrary, index: number, scans: FakeScans): Record<string, unknown> {
  const active = library.locations.some((location) => scans.scanning(location));
  return {
    Name: library.name,
    Locations: library.locations,
    ...(library.collectionType ? { CollectionType: library.collectionType } : {}),
    ItemId: mediaFolderId(index),
    Id: mediaFolderId(index),
    Guid: library.id,
    ...(active ? { RefreshStatus: "Active", RefreshProgress: 50 } : { RefreshStatus: "Idle" }),
  };
}

/** `GET /ScheduledTasks`: "Scan media library" (key RefreshLibrary) and one other, as Emby 4.8 lists them. */
function renderTasks(libraryScanRunning: boolean): Array<Record<string, unknown>> {
  const task = (key: string, name: string, running: boolean) => ({
    Name: name,
    State: running ? "Running" : "Idle",
    ...(running ? { CurrentProgressPercentage: 42.5 } : {}),
    Id: key.length.toString(16).padStart(32, "0"),
    Triggers: [],
    Description: name,
    Category: "Library",
    IsHidden: false,
    Key: key,
  });
  return [
    task("RefreshLibrary", "Scan media library", libraryScanRunning),
    task("RefreshChapterImages", "Thumbnail image extraction", false),
  ];
}
