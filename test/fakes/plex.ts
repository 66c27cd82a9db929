import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** "ok" answers normally; a number answers that status; "hang" never answers until close(). */
/** A library as the fake serves it; `key` is the section id. */
export interface FakeSection {
  key: string;
  title: string;
  type: string;
  locations: string[];
}

export type FakePlexMode = "ok" | "hang" | 400 | 401 | 403 | 404 | 405 | 500 | 502 | 503;
/** Which calls a mode applies to: everything, `/library/sections[/all]`, or `.../refresh`. */
export type FakePlexRoute = "all" | "sections" | "refresh";

export interface FakePlexOptions {
  /** The token the fake accepts; a fixed test value by default. */
  token?: string;
  /** A shared (non-admin) user's token: accepted for reading, 403 on admin-only calls (scans, /butler). */
  sharedToken?: string;
  sections?: FakeSection[];
  mode?: FakePlexMode;
  /** Address to listen on; 127.0.0.1 by default (the container test listens where a container can reach it). */
  host?: string;
}

export interface FakePlexRequest {
  method: string;
  /** Path and query as received, e.g. `/library/sections/2/refresh?path=%2Fdata%2FTV`. */
  url: string;
  /** Where the token came from, if anywhere. */
  tokenIn: "header" | "query" | "shared" | "none";
  accept: string | undefined;
}

export interface FakePlex {
  /** `http://127.0.0.1:<port>`, for PLEX_LOCAL_URL. */
  url: string;
  token: string;
  /** Accepted scans, in arrival order; `path` is the decoded `path=` (null for a whole-section scan). */
  refreshes: Array<{ sectionId: string; path: string | null }>;
  /** Every request received, answered or not. */
  requests: FakePlexRequest[];
  setMode(mode: FakePlexMode, route?: FakePlexRoute): void;
  setSections(sections: FakeSection[]): void;
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
 * one: the token in the `X-Plex-Token` header or query (401 with Plex's HTML
 * page without it; `/identity` needs none), `/library/sections` as JSON when
 * asked with `Accept: application/json` and as XML otherwise, `GET
 * /library/sections/{id}/refresh?path=` recorded and answered 200 with an
 * empty body, 404 for an unknown section or for PUT/POST on refresh (PMS
 * ≥ 1.32.7). `setMode` makes it fail (401/403/404/5xx) or hang.
 *
 * ```ts
 * const plex = await startFakePlex();
 * const config = { ...defaultConfig(pass), PLEX_LOCAL_URL: plex.url, PLEX_TOKEN: plex.token };
 * // ... drive the code under test ...
 * await plex.waitForRefreshes(1);
 * expect(plex.refreshes).toEqual([{ sectionId: "2", path: "/data/TV-Shows/Show/Season 1" }]);
 * await plex.close();
 * ```
 */
export async function startFakePlex(options: FakePlexOptions = {}): Promise<FakePlex> {
  const token = options.token ?? "fake-plex-token-0123456789";
  let sections = options.sections ?? DEFAULT_SECTIONS;
  const modes: Record<FakePlexRoute, FakePlexMode> = { all: options.mode ?? "ok", sections: "ok", refresh: "ok" };
  const refreshes: FakePlex["refreshes"] = [];
  const requests: FakePlexRequest[] = [];
  const waiters = new Set<() => void>();

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake-plex");
    const tokenIn = readTokenSource(req, url, token, options.sharedToken);
    requests.push({ method: req.method ?? "GET", url: req.url ?? "/", tokenIn, accept: req.headers.accept });
    const route = routeOf(url.pathname);
    const mode = modes.all !== "ok" ? modes.all : route === "other" ? "ok" : modes[route];
    if (mode === "hang") return;
    // /identity is unauthenticated on a real server, and a bad token does not change it.
    const down = mode === 404 || (typeof mode === "number" && mode >= 500);
    if (url.pathname === "/identity" && !down) return send(res, 200, ...renderIdentity(req));
    if (tokenIn === "none") return send(res, 401, ...plexError(401));
    if (mode !== "ok") return send(res, mode, ...plexError(mode));
    if (tokenIn === "shared" && (route === "refresh" || url.pathname === "/butler")) return send(res, 403, ...plexError(403));
    if (url.pathname === "/butler" && req.method === "GET") return send(res, 200, ...renderButler(req));
    if (route === "sections" && req.method === "GET") return send(res, 200, ...renderSections(req, sections));
    if (route === "refresh") return answerRefresh(req, res, url, sections, refreshes, waiters);
    if (url.pathname === "/" && req.method === "GET") return send(res, 200, ...renderRoot(req));
    send(res, 404, ...plexError(404));
  });
  const host = options.host ?? "127.0.0.1";
  server.listen(0, host);
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`,
    token,
    refreshes,
    requests,
    setMode(mode, route = "all") {
      modes[route] = mode;
    },
    setSections(next) {
      sections = next;
    },
    waitForRefreshes(count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
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
  };
}

function readTokenSource(req: IncomingMessage, url: URL, token: string, sharedToken: string | undefined): FakePlexRequest["tokenIn"] {
  if (req.headers["x-plex-token"] === token) return "header";
  if (url.searchParams.get("X-Plex-Token") === token) return "query";
  if (sharedToken !== undefined && (req.headers["x-plex-token"] === sharedToken || url.searchParams.get("X-Plex-Token") === sharedToken)) {
    return "shared";
  }
  return "none";
}

function routeOf(pathname: string): FakePlexRoute | "other" {
  if (pathname === "/library/sections" || pathname === "/library/sections/all") return "sections";
  if (/^\/library\/sections\/[^/]+\/refresh$/.test(pathname)) return "refresh";
  return "other";
}

function answerRefresh(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  sections: FakeSection[],
  refreshes: FakePlex["refreshes"],
  waiters: Set<() => void>,
): void {
  const sectionId = decodeURIComponent(url.pathname.split("/")[3] ?? "");
  // PMS logs "Invalid library section ID" and answers 500 for a non-numeric id.
  if (!/^\d+$/.test(sectionId)) return send(res, 500, ...plexError(500));
  if (!sections.some((s) => s.key === sectionId)) return send(res, 404, ...plexError(404));
  if (req.method === "DELETE") return send(res, 200, "", "text/html");
  if (req.method !== "GET") return send(res, 404, ...plexError(404));
  refreshes.push({ sectionId, path: url.searchParams.get("path") });
  for (const waiter of [...waiters]) waiter();
  send(res, 200, "", "text/html");
}

function send(res: ServerResponse, status: number, body: string, contentType: string): void {
  res.writeHead(status, { "Content-Type": contentType, "X-Plex-Protocol": "1.0" });
  res.end(body);
}

type Rendered = [body: string, contentType: string];

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

/** Plex's error pages are tiny HTML documents, not JSON. */
function plexError(status: number): Rendered {
  const text = `${status} ${STATUS_TEXT[status] ?? "Error"}`;
  return [`<html><head><title>${STATUS_TEXT[status] ?? "Error"}</title></head><body><h1>${text}</h1></body></html>`, "text/html"];
}

function wantsJson(req: IncomingMessage): boolean {
  return (req.headers.accept ?? "").includes("application/json");
}

/** One MediaContainer in either of Plex's encodings; `children` are Directory entries with Location lists. */
function renderContainer(req: IncomingMessage, attributes: Record<string, unknown>, children?: Array<Record<string, unknown>>): Rendered {
  if (wantsJson(req)) {
    // Plex leaves out an empty Directory array altogether.
    const container = children && children.length > 0 ? { ...attributes, Directory: children } : attributes;
    return [JSON.stringify({ MediaContainer: container }), "application/json"];
  }
  const inner = (children ?? []).map((child) => {
    const { Location, ...rest } = child;
    const locations = (Location as Array<Record<string, unknown>>).map((l) => `<Location${xmlAttributes(l)} />`);
    return `<Directory${xmlAttributes(rest)}>\n${locations.join("\n")}\n</Directory>`;
  });
  const head = `<?xml version="1.0" encoding="UTF-8"?>\n<MediaContainer${xmlAttributes(attributes)}`;
  const xml = inner.length === 0 ? `${head} />\n` : `${head}>\n${inner.join("\n")}\n</MediaContainer>\n`;
  return [xml, "text/xml;charset=utf-8"];
}

function xmlAttributes(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([name, value]) => ` ${name}="${escapeXml(typeof value === "boolean" ? (value ? "1" : "0") : String(value))}"`)
    .join("");
}

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "apos" }[c]};`);
}

const AGENTS: Record<string, [agent: string, scanner: string]> = {
  movie: ["tv.plex.agents.movie", "Plex Movie"],
  show: ["tv.plex.agents.series", "Plex TV Series"],
  artist: ["tv.plex.agents.music", "Plex Music"],
  photo: ["com.plexapp.agents.none", "Plex Photo Scanner"],
};

function renderSections(req: IncomingMessage, sections: FakeSection[]): Rendered {
  let locationId = 0;
  const directories = sections.map((s) => {
    const [agent, scanner] = AGENTS[s.type] ?? ["com.plexapp.agents.none", "Plex Video Files Scanner"];
    return {
      allowSync: true,
      art: `/:/resources/${s.type}-fanart.jpg`,
      composite: `/library/sections/${s.key}/composite/1700000000`,
      filters: true,
      refreshing: false,
      thumb: `/:/resources/${s.type}.png`,
      key: s.key,
      type: s.type,
      title: s.title,
      agent,
      scanner,
      language: "en-US",
      uuid: `00000000-0000-4000-8000-${s.key.padStart(12, "0")}`,
      updatedAt: 1700000000,
      createdAt: 1600000000,
      scannedAt: 1700000000,
      content: true,
      directory: true,
      contentChangedAt: 1234,
      hidden: 0,
      Location: s.locations.map((path) => ({ id: ++locationId, path })),
    };
  });
  return renderContainer(req, { size: sections.length, allowSync: false, title1: "Plex Library" }, directories);
}

/** `GET /butler`, the admin-only list of scheduled tasks (its shape per the OpenAPI spec). */
function renderButler(req: IncomingMessage): Rendered {
  const task = { name: "BackupDatabase", interval: 3, scheduleRandomized: false, enabled: true, title: "Back up database" };
  if (wantsJson(req)) return [JSON.stringify({ ButlerTasks: { ButlerTask: [task] } }), "application/json"];
  return [
    `<?xml version="1.0" encoding="UTF-8"?>\n<ButlerTasks>\n<ButlerTask${xmlAttributes(task)} />\n</ButlerTasks>\n`,
    "text/xml;charset=utf-8",
  ];
}

function renderIdentity(req: IncomingMessage): Rendered {
  return renderContainer(req, { size: 0, claimed: true, machineIdentifier: "fakeplex0123456789abcdef", version: FAKE_VERSION });
}

function renderRoot(req: IncomingMessage): Rendered {
  return renderContainer(req, { size: 0, friendlyName: "fake-plex", machineIdentifier: "fakeplex0123456789abcdef", version: FAKE_VERSION });
}

const FAKE_VERSION = "1.41.3.9314-a0bfb8370";
