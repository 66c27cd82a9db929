import type { TurnShare } from "./turn-share.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Ingest } from "../ingest/pipeline.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { ScanMetrics } from "../metrics/metrics.js";
import type { PathMapper } from "../paths/mapper.js";
import type { QueuedScan } from "../queue/types.js";
import type { ScanCounts } from "../queue/views/scan-counts.js";
import type { CompatDeps } from "./compat/deps.js";
import type { HttpError } from "./http-error.js";
import type { DashboardDeps } from "./dashboard/deps.js";
import type { LiveEvents } from "./dashboard/events.js";
import type { HealthFacts } from "./health.js";
import type { DashboardLogin } from "./login/dashboard-login.js";
import type { FormToken } from "./same-origin.js";

/** The queue as the HTTP side sees it: what the pages and the API list. */
export interface QueueView {
  countPending(): number;
  countFailed(): number;
  /** Scans per shown state: the one count the pages, /health, /metrics and the API show. */
  counts(): ScanCounts;
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

/** One request as the route handlers see it. */
export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Read when the request arrived: the socket is gone once the client is. */
  remote: string | undefined;
  deps: ScanServerDeps;
  formToken: FormToken;
  /** The values of the route's `:name` segments, decoded. */
  params: Readonly<Record<string, string>>;
  /** The dashboard's event streams, when the dashboard is served. */
  live?: LiveEvents;
  /** Who is logged in to the dashboard, when a login is configured. */
  user?: string;
  /** Shares the loop's turns between requests while clients connect (turn-share.ts); absent: no waiting. */
  turns?: TurnShare;
}

/**
 * What a dashboard request is, for the login: the page (a browser is sent to
 * the form), its script, fragment and event stream (401), the JSON API (401
 * JSON, or HTTP Basic for scripts), an action (a plain form is sent to the
 * form, a script gets 401 JSON or may use HTTP Basic).
 */
export type DashboardPart = "page" | "data" | "api" | "action";

export type Handler = (ctx: RequestContext) => Promise<void> | void;

/** The methods routes name; a route of methods "*" takes any method and its handler decides. */
export type Method = "GET" | "HEAD" | "POST" | "PUT";

/**
 * How a route's caller proves itself, checked by the router before the handler runs:
 * - `pass`: SERVER_PASS as the route's `:pass` segment (constant time; wrong = 401);
 * - `login`: the pass, then the dashboard login when one is configured (a session, or HTTP Basic where `part` allows);
 * - `basic`: HTTP Basic with SERVER_USERNAME and the argon2 SERVER_PASSWORD_HASH;
 * - `none`: nothing.
 */
export type RouteAuth = "pass" | "login" | "basic" | "none";

interface RouteBase {
  /** The methods the route takes, or "*" for any (405 with `Allow` for the others). */
  methods: readonly Method[] | "*";
  /** Literal segments and `:name` parameters, e.g. `/:pass/api/queue`; `:pass` is where the pass goes. */
  path: string;
  /** Whether the route exists in this process (a login configured, the compat routes built); absent = always. */
  served?: (deps: ScanServerDeps) => boolean;
  /** Runs after the pass and before any credential is checked; throws an HttpError to refuse. */
  guard?: (req: IncomingMessage) => void;
  /** How the route's callers must hear a refusal (its key's, its guard's and its handler's alike); absent = as thrown. */
  refusal?: (error: HttpError) => HttpError;
  handler: Handler;
}

/** One entry of the route list (src/server/route-list.ts): a URL the service answers, and who may call it. */
export type Route = RouteBase & ({ auth: "pass" | "basic" | "none" } | { auth: "login"; part: DashboardPart });
