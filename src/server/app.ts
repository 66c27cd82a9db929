import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { QueuedScan } from "../queue/types.js";
import { ClientGoneError } from "./body.js";
import type { HealthFacts } from "./health.js";
import { HttpError, unwritableAnswer } from "./http-error.js";
import type { CompatDeps } from "./compat/deps.js";
import { handleTriggers } from "./compat/routes.js";
import type { Ingest } from "../ingest/pipeline.js";
import type { PathMapper } from "../paths/mapper.js";
import { createPassCheck } from "./pass.js";
import { sendJson } from "./respond.js";
import { handleHealth, handleLegacyApi, handleManualPage, handleQueueApi, handleScanPost, type RequestContext } from "./routes.js";
import { createFormToken } from "./same-origin.js";
import { createWrongPassLog } from "./wrong-pass-log.js";
import type { DashboardDeps } from "./dashboard/deps.js";
import { createLiveEvents } from "./dashboard/events.js";
import { handleDashboardRoute } from "./dashboard/routes.js";
import { handleMetrics } from "./metrics-route.js";
import type { ScanMetrics } from "../metrics/metrics.js";
import type { DashboardLogin } from "./login/dashboard-login.js";
import { admitToDashboard, handleLogin, handleLogout, type DashboardPart } from "./login/routes.js";

/** The queue as the HTTP side sees it: a sink plus what the pages and the API list. */
export interface QueueView {
  countPending(): number;
  countFailed(): number;
  listPending(limit?: number): QueuedScan[];
  listFailed(limit?: number): QueuedScan[];
  recent(limit?: number): QueuedScan[];
  /** Scans Plex did not confirm, newest first (after-scan confirmation). */
  listUnconfirmed?(limit?: number): QueuedScan[];
}

export interface ScanServerDeps {
  pass: string;
  queue: QueueView;
  /** The one way in (src/ingest): every webhook, manual scan and /triggers request goes through it. */
  ingest: Ingest;
  /** SERVER_ALLOW_MANUAL_SCAN. */
  allowManual: boolean;
  /** SERVER_PATH_MAPPINGS, for the autopulse hash check (it reads the file the request names). */
  mapper: PathMapper;
  logger: Logger;
  clock: Clock;
  /** Extra, secret-free facts for GET /health (targets, drive monitor). */
  status?: () => Record<string, unknown>;
  /** The facts GET /health judges (see evaluateHealth); without it /health answers "ok" from `status` alone. */
  health?: () => Omit<HealthFacts, "queue">;
  bodyLimitBytes?: number;
  /** The autoscan/autopulse-compatible /triggers/* routes; absent = not served. */
  compat?: CompatDeps;
  /** The dashboard (queue, history, actions, path tester); absent = the plain manual page. */
  dashboard?: DashboardDeps;
  /** Prometheus metrics; GET /metrics is served only when present. */
  metrics?: ScanMetrics;
  /** The optional dashboard login (createDashboardLogin); absent = the pass in the path is the dashboard's only key. */
  login?: DashboardLogin;
}

type Handler = (ctx: RequestContext) => Promise<void> | void;

/** The methods each route answers; any other method gets 405 with an Allow header. */
const ROUTES = {
  health: { GET: handleHealth, HEAD: handleHealth },
  legacyApi: { GET: handleLegacyApi, POST: handleLegacyApi },
  service: { GET: handleManualPage, HEAD: handleManualPage, POST: handleScanPost, PUT: handleScanPost },
  queueApi: { GET: handleQueueApi, HEAD: handleQueueApi },
  metrics: { GET: handleMetrics },
  dashboard: { GET: dashboardRoute, HEAD: dashboardRoute, POST: dashboardRoute },
  login: { GET: handleLogin, HEAD: handleLogin, POST: handleLogin },
  logout: { POST: handleLogout },
} satisfies Record<string, Record<string, Handler>>;

type RouteName = keyof typeof ROUTES;

const DASHBOARD_FIRST = new Set(["dashboard.js", "fragment", "events", "actions", "api"]);

function dashboardRoute(ctx: RequestContext): Promise<void> {
  return handleDashboardRoute(ctx, decodeSegments(ctx.url.pathname).slice(1));
}

/** The HTTP service: one request handler, routes in routes.ts. */
export function createScanServer(deps: ScanServerDeps): Server {
  const passMatches = createPassCheck(deps.pass);
  const wrongPass = createWrongPassLog(deps.logger, deps.clock);
  const formToken = createFormToken();
  const live = deps.dashboard ? createLiveEvents(deps.dashboard.events) : undefined;
  const server = createServer((req, res) => {
    const ctx: RequestContext = {
      req,
      res,
      url: new URL(req.url ?? "/", "http://scanarr.invalid"),
      remote: req.socket?.remoteAddress,
      deps,
      formToken,
      live,
    };
    handle(ctx, passMatches, wrongPass.note).catch((error: unknown) => fail(res, deps.logger, error));
  });
  server.on("close", () => {
    wrongPass.flush();
    deps.login?.flush();
  });
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return server;
}

async function handle(ctx: RequestContext, passMatches: (p: string) => boolean, noteWrongPass: (remote?: string) => void): Promise<void> {
  const segments = decodeSegments(ctx.url.pathname);
  // autoscan/autopulse-compatible routes: HTTP Basic on the bare path, or the pass as the first segment.
  if (segments[0] === "triggers") return handleTriggers(ctx.req, ctx.res, ctx.url, segments.slice(1), ctx.deps, "basic");
  if (segments[1] === "triggers") {
    if (!passMatches(segments[0] ?? "")) return refuseWrongPass(ctx, noteWrongPass);
    return handleTriggers(ctx.req, ctx.res, ctx.url, segments.slice(2), ctx.deps, "pass");
  }
  const match = matchRoute(segments);
  if (match === undefined) {
    if (segments.length === 0) throw new HttpError(404, "nothing here; the service lives at /<SERVER_PASS>");
    if (!passMatches(segments[0] === "api" ? (segments[1] ?? "") : (segments[0] ?? ""))) return refuseWrongPass(ctx, noteWrongPass);
    throw new HttpError(404, "no such route");
  }
  if (match.pass !== undefined && !passMatches(match.pass)) return refuseWrongPass(ctx, noteWrongPass);
  // Without a login configured these addresses do not exist, as before there was one.
  if ((match.route === "login" || match.route === "logout") && ctx.deps.login === undefined) throw new HttpError(404, "no such route");
  const route: Record<string, Handler> = ROUTES[match.route];
  const method = ctx.req.method ?? "GET";
  const handler = route[method];
  if (handler === undefined) {
    const allowed = Object.keys(route);
    ctx.res.setHeader("allow", allowed.join(", "));
    throw new HttpError(405, `use ${allowed.join(" or ")}`);
  }
  const part = dashboardPart(match.route, method, segments);
  if (part !== undefined && !(await admitToDashboard(ctx, part))) return;
  return handler(ctx);
}

/** Which part of the dashboard a route is, for the login; undefined for the webhook, health and metrics routes. */
function dashboardPart(route: RouteName, method: string, segments: string[]): DashboardPart | undefined {
  if (route === "service") return method === "GET" || method === "HEAD" ? "page" : undefined;
  if (route === "queueApi") return "api";
  if (route !== "dashboard") return undefined;
  return segments[1] === "api" ? "api" : segments[1] === "actions" ? "action" : "data";
}

function matchRoute(segments: string[]): { route: RouteName; pass?: string } | undefined {
  const [first, second, third] = segments;
  if (segments.length === 1 && first === "health") return { route: "health" };
  if (segments.length === 1 && first === "metrics") return { route: "metrics" };
  if (segments.length === 2 && first === "api") return { route: "legacyApi", pass: second };
  if (segments.length === 1) return { route: "service", pass: first };
  if (segments.length === 2 && (second === "login" || second === "logout")) return { route: second, pass: first };
  if (segments.length === 3 && second === "api" && third === "queue") return { route: "queueApi", pass: first };
  if (segments.length >= 2 && segments.length <= 3 && DASHBOARD_FIRST.has(second ?? "")) return { route: "dashboard", pass: first };
  return undefined;
}

function refuseWrongPass(ctx: RequestContext, noteWrongPass: (remote?: string) => void): never {
  noteWrongPass(ctx.remote);
  throw new HttpError(401, "wrong or missing pass");
}

function decodeSegments(pathname: string): string[] {
  try {
    return pathname
      .split("/")
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    throw new HttpError(400, "the URL path is not valid percent-encoding");
  }
}

function fail(res: ServerResponse, logger: Logger, error: unknown): void {
  if (error instanceof ClientGoneError) {
    // The client gave up (a timeout, a closed tab); nothing is wrong with the service.
    logger.debug({ reason: error.message }, "client went away before its request was read");
    res.destroy();
    return;
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (error instanceof HttpError) {
    if (error.status === 413) res.setHeader("connection", "close");
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    return sendJson(res, error.status, { error: error.message, ...error.details });
  }
  // A dashboard action (retry, cancel) on a database that cannot write: said as such, not as our bug.
  const unwritable = unwritableAnswer(error);
  if (unwritable) return fail(res, logger, unwritable);
  logger.error({ err: error instanceof Error ? error.message : String(error) }, "request failed");
  sendJson(res, 500, { error: "internal error; the request was not queued (see the service log)" });
}

/** Listens and reports the real address (port 0 picks a free port). */
export function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}
