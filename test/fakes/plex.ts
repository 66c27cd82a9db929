import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { checkThen } from "./loopback.js";
import { FakeMediaLibrary, type FakeItem, type FakeSection, type RefreshDuration } from "./plex-library.js";
import { answerAll, answerEmptyTrash, answerFolder, answerItemAction, type LibraryCalls } from "./plex-library-routes.js";
import { plexError, renderContainer, renderIdentity, renderRoot, renderSections, send, type RefreshingStyle } from "./plex-render.js";

export type { FakeItem, FakeSection, RefreshDuration } from "./plex-library.js";

/** "ok" answers normally; a number answers that status; "hang" never answers until close(). */
export type FakePlexMode = "ok" | "hang" | 400 | 401 | 403 | 404 | 405 | 500 | 502 | 503;
/** Which calls a mode applies to: everything, the section list, section refresh, item analyze/refresh, emptyTrash, folder view, `/all`. */
export type FakePlexRoute = "all" | "sections" | "refresh" | "item" | "emptyTrash" | "folder" | "list";

export interface FakePlexOptions {
  /** The admin token the fake accepts; a fixed test value by default. */
  token?: string;
  /** A shared (non-admin) user's token: it reads, and gets 403 on admin calls (scan, analyze, emptyTrash). */
  sharedToken?: string;
  /** Address to listen on; 127.0.0.1 by default (the container test listens where a container can reach it). */
  host?: string;
  sections?: FakeSection[];
  mode?: FakePlexMode;
  /** How long a section stays `refreshing` after a scan call: section polls, "manual" (finishRefresh) or a time. Default 0: done at once. */
  refreshDuration?: RefreshDuration;
  /** `refreshing` in JSON as a boolean (current servers) or as 0/1. */
  refreshingAs?: RefreshingStyle;
  /** Called as each request arrives, before it is answered (a test's "meanwhile"); a promise holds the answer back until it settles. */
  onRequest?: (request: FakePlexRequest) => void | Promise<void>;
}

export interface FakePlexRequest {
  method: string;
  /** Path and query as received, e.g. `/library/sections/2/refresh?path=%2Fdata%2FTV`. */
  url: string;
  /** Where the token came from, if anywhere. */
  tokenIn: "header" | "query" | "none";
  accept: string | undefined;
  /** `performance.now()` when the request arrived (tests that time scans against other events). */
  at: number;
}

export interface FakePlex extends LibraryCalls {
  /** `http://127.0.0.1:<port>`, for PLEX_LOCAL_URL. */
  url: string;
  token: string;
  sharedToken: string;
  /** Accepted scans, in arrival order; `path` is the decoded `path=` (null for a whole-section scan). */
  refreshes: Array<{ sectionId: string; path: string | null }>;
  /** Every request received, answered or not. */
  requests: FakePlexRequest[];
  setMode(mode: FakePlexMode, route?: FakePlexRoute): void;
  setSections(sections: FakeSection[]): void;
  setRefreshDuration(duration: RefreshDuration): void;
  /** Puts a file on "disk": the next refresh covering it makes it an item. */
  addFile(file: string): void;
  /** Removes a file from "disk": the next refresh covering it moves its item to the trash. */
  removeFile(file: string): void;
  /** A file Plex already holds (on disk and an item). */
  addItem(file: string): FakeItem;
  /** The item holding `file`, trashed or not. */
  itemOf(file: string): FakeItem | undefined;
  /** Ends a section's refresh now, applying what it found. */
  finishRefresh(sectionId: string): void;
  isRefreshing(sectionId: string): boolean;
  trashCount(sectionId: string): number;
  /** Resolves once `count` scans were accepted in total; rejects after `timeoutMs` (default 5 s). */
  waitForRefreshes(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Sections of the fixture library DB (`../shared/fixtures/plex`), so both fakes agree. */
export const DEFAULT_SECTIONS: FakeSection[] = [
  { key: "1", title: "Movies", type: "movie", locations: ["/data/Movies"] },
  { key: "2", title: "TV Shows", type: "show", locations: ["/data/TV-Shows"] },
  { key: "3", title: "Photos", type: "photo", locations: ["/data/Photos"] },
  { key: "5", title: "Music", type: "artist", locations: ["/data/Music"] },
];

/**
 * A Plex Media Server on 127.0.0.1:<random port> that answers like the real
 * one (apis.md §1, round2.md §3): the token in the `X-Plex-Token` header or
 * query (401 with Plex's HTML page without it; `/identity` needs none; a
 * shared user's token gets 403 on admin calls), JSON with `Accept:
 * application/json` and XML otherwise. `GET /library/sections/{id}/refresh`
 * is recorded and answered 200 with an empty body; the section then shows
 * `refreshing` for `refreshDuration` polls of `/library/sections` before the
 * files on "disk" under the path become items (and vanished ones trashed).
 * Items are listed by the folder view and `/all` with their Media/Part/file;
 * analyze, item refresh and emptyTrash are PUT-only and recorded.
 */
export async function startFakePlex(options: FakePlexOptions = {}): Promise<FakePlex> {
  const token = options.token ?? "fake-plex-token-0123456789";
  const sharedToken = options.sharedToken ?? "fake-plex-shared-user-token-9876";
  let sections = options.sections ?? DEFAULT_SECTIONS;
  const library = new FakeMediaLibrary(() => sections);
  library.duration = options.refreshDuration ?? 0;
  const modes: Record<FakePlexRoute, FakePlexMode> = {
    all: options.mode ?? "ok",
    sections: "ok",
    refresh: "ok",
    item: "ok",
    emptyTrash: "ok",
    folder: "ok",
    list: "ok",
  };
  const calls: LibraryCalls = { analyzed: [], itemRefreshes: [], emptiedTrash: [] };
  const refreshes: FakePlex["refreshes"] = [];
  const requests: FakePlexRequest[] = [];
  const waiters = new Set<() => void>();
  const folderIds = { byId: new Map<string, string>(), byDir: new Map<string, string>() };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake-plex");
    // Plex's calls carry no body; the request is checked against plex-api-spec.yaml before it is answered.
    req.resume();
    void checkThen(PLEX_SPEC, { req, url, body: "" }, res, () => void answer(req, res, url));
  });
  const answer = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const caller = readCaller(req, url, token, sharedToken);
    const request = {
      method: req.method ?? "GET",
      url: req.url ?? "/",
      tokenIn: caller.tokenIn,
      accept: req.headers.accept,
      at: performance.now(),
    };
    requests.push(request);
    await options.onRequest?.(request);
    library.settle();
    const route = routeOf(url.pathname);
    const mode = modes.all !== "ok" ? modes.all : route.name === "other" || route.name === "butler" ? "ok" : modes[route.name];
    if (mode === "hang") return;
    // /identity is unauthenticated on a real server, and a bad token does not change it.
    const down = mode === 404 || (typeof mode === "number" && mode >= 500);
    if (url.pathname === "/identity" && !down) return send(res, 200, ...renderIdentity(req));
    if (caller.tokenIn === "none") return send(res, 401, ...plexError(401));
    if (mode !== "ok") return send(res, mode, ...plexError(mode));
    if (route.name === "sections" && req.method === "GET") {
      return send(res, 200, ...renderSections(req, sections, (id) => library.pollRefreshing(id), options.refreshingAs ?? "boolean"));
    }
    if (url.pathname === "/" && req.method === "GET") return send(res, 200, ...renderRoot(req));
    if (route.name === "other" || route.name === "sections") return send(res, 404, ...plexError(404));
    // Admin-only calls (the spec's `security: token: [admin]`) refuse a shared user's token.
    if (route.admin && !caller.admin) return send(res, 403, ...plexError(403));
    if (route.name === "butler") return send(res, 200, ...renderContainer(req, { size: 1 }));
    const ctx = { req, res, url, sections, library, calls };
    if (route.name === "item") return answerItemAction(ctx, route.id, route.action);
    // PMS logs "Invalid library section ID" and answers 500 for a non-numeric id.
    if (!/^\d+$/.test(route.id)) return send(res, 500, ...plexError(500));
    const section = sections.find((s) => s.key === route.id);
    if (!section) return send(res, 404, ...plexError(404));
    if (route.name === "refresh") return answerRefresh(req, res, url, section, refreshes, library, waiters);
    if (route.name === "emptyTrash") return answerEmptyTrash(ctx, section);
    if (route.name === "folder") return answerFolder(ctx, section, folderIds);
    return answerAll(ctx, section);
  };
  const host = options.host ?? "127.0.0.1";
  server.listen(0, host);
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  return Object.assign(calls, {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`,
    token,
    sharedToken,
    refreshes,
    requests,
    setMode(mode: FakePlexMode, route: FakePlexRoute = "all") {
      modes[route] = mode;
    },
    setSections(next: FakeSection[]) {
      sections = next;
    },
    setRefreshDuration: (duration: RefreshDuration) => void (library.duration = duration),
    addFile: (file: string) => void library.disk.add(file),
    removeFile: (file: string) => void library.disk.delete(file),
    addItem: (file: string) => library.addItem(file),
    itemOf: (file: string) => library.items.get(file),
    finishRefresh: (sectionId: string) => library.finish(sectionId),
    isRefreshing: (sectionId: string) => library.isRefreshing(sectionId),
    trashCount: (sectionId: string) => library.trashCount(sectionId),
    waitForRefreshes(count: number, timeoutMs = 5_000) {
      return new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (refreshes.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`fake Plex saw ${refreshes.length} of ${count} expected refreshes within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

const PLEX_SPEC = { server: "plex", label: "Plex" } as const;

function readCaller(
  req: IncomingMessage,
  url: URL,
  token: string,
  shared: string,
): { tokenIn: FakePlexRequest["tokenIn"]; admin: boolean } {
  for (const [tokenIn, value] of [
    ["header", req.headers["x-plex-token"]],
    ["query", url.searchParams.get("X-Plex-Token")],
  ] as const) {
    if (value === token) return { tokenIn, admin: true };
    if (value === shared) return { tokenIn, admin: false };
  }
  return { tokenIn: "none", admin: false };
}

type Route =
  | { name: "sections"; admin: false }
  | { name: "other"; admin: false }
  | { name: "butler"; admin: true }
  | { name: "refresh" | "emptyTrash" | "folder" | "list"; id: string; admin: boolean }
  | { name: "item"; id: string; action: "analyze" | "refresh"; admin: true };

function routeOf(pathname: string): Route {
  // The scheduled tasks: read-only, admin-only (doctor's admin probe).
  if (pathname === "/butler") return { name: "butler", admin: true };
  if (pathname === "/library/sections" || pathname === "/library/sections/all") return { name: "sections", admin: false };
  const item = /^\/library\/metadata\/([^/]+)\/(analyze|refresh)$/.exec(pathname);
  if (item) return { name: "item", id: decodeURIComponent(item[1] ?? ""), action: item[2] as "analyze" | "refresh", admin: true };
  const section = /^\/library\/sections\/([^/]+)\/(refresh|emptyTrash|folder|all)$/.exec(pathname);
  if (!section) return { name: "other", admin: false };
  const id = decodeURIComponent(section[1] ?? "");
  const name = section[2] === "all" ? "list" : (section[2] as "refresh" | "emptyTrash" | "folder");
  return { name, id, admin: name === "refresh" || name === "emptyTrash" };
}

function answerRefresh(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  section: FakeSection,
  refreshes: FakePlex["refreshes"],
  library: FakeMediaLibrary,
  waiters: Set<() => void>,
): void {
  if (req.method === "DELETE") return send(res, 200, "", "text/html");
  // PMS ≥ 1.32.7 answers 404 to PUT/POST here; everyone uses GET.
  if (req.method !== "GET") return send(res, 404, ...plexError(404));
  const path = url.searchParams.get("path");
  refreshes.push({ sectionId: section.key, path });
  library.startRefresh(section.key, path);
  for (const waiter of [...waiters]) waiter();
  send(res, 200, "", "text/html");
}
