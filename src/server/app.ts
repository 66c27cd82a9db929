import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ScanSink } from "../domain.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { QueuedScan } from "../queue/types.js";
import { HttpError } from "./http-error.js";
import type { CompatDeps } from "./compat/deps.js";
import { handleTriggers } from "./compat/routes.js";
import type { IngestDeps, IngestSink } from "./ingest.js";
import { createPassCheck } from "./pass.js";
import { sendJson } from "./respond.js";
import { handleLegacyApi, handleManualPage, handleQueueApi, handleScanPost } from "./routes.js";

/** The queue as the HTTP side sees it: a sink plus what the pages and the API list. */
export interface QueueView extends ScanSink {
  countPending(): number;
  countFailed(): number;
  listPending(limit?: number): QueuedScan[];
  listFailed(limit?: number): QueuedScan[];
  recent(limit?: number): QueuedScan[];
}

export interface ScanServerDeps extends Omit<IngestDeps, "sink"> {
  pass: string;
  queue: QueueView;
  /** Where requests are committed; the queue itself when absent (the service passes a group commit). */
  sink?: IngestSink;
  logger: Logger;
  clock: Clock;
  /** Extra, secret-free facts for GET /health (targets, drive monitor). */
  status?: () => Record<string, unknown>;
  bodyLimitBytes?: number;
  /** The autoscan/autopulse-compatible /triggers/* routes; absent = not served. */
  compat?: CompatDeps;
}

/** The HTTP service: one request handler, routes in routes.ts. */
export function createScanServer(deps: ScanServerDeps): Server {
  const passMatches = createPassCheck(deps.pass);
  const server = createServer((req, res) => {
    handle(req, res, deps, passMatches).catch((error: unknown) => fail(res, deps.logger, error));
  });
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return server;
}

async function handle(req: IncomingMessage, res: ServerResponse, deps: ScanServerDeps, passMatches: (p: string) => boolean): Promise<void> {
  const url = new URL(req.url ?? "/", "http://scanarr.invalid");
  const segments = decodeSegments(url.pathname);
  const method = req.method ?? "GET";
  if (segments.length === 1 && segments[0] === "health") {
    if (method !== "GET" && method !== "HEAD") throw new HttpError(405, "use GET");
    return sendJson(res, 200, { status: "ok", pending: deps.queue.countPending(), failed: deps.queue.countFailed(), ...deps.status?.() });
  }
  if (segments[0] === "triggers") return handleTriggers(req, res, url, segments.slice(1), deps, "basic");
  const isLegacyApi = segments[0] === "api" && segments.length === 2;
  const presented = isLegacyApi ? segments[1] : segments[0];
  if (presented === undefined) throw new HttpError(404, "nothing here; the service lives at /<SERVER_PASS>");
  if (!passMatches(presented)) {
    deps.logger.warn({ remote: req.socket.remoteAddress, method }, "request with a wrong pass refused");
    throw new HttpError(401, "wrong or missing pass");
  }
  if (isLegacyApi) {
    if (method !== "GET" && method !== "POST") throw new HttpError(405, "use GET or POST");
    return handleLegacyApi(req, res, url, deps);
  }
  if (segments[1] === "triggers") return handleTriggers(req, res, url, segments.slice(2), deps, "pass");
  if (segments.length === 1) {
    if (method === "GET" || method === "HEAD") return handleManualPage(res, deps);
    if (method === "POST" || method === "PUT") return handleScanPost(req, res, deps);
    res.setHeader("allow", "GET, POST, PUT");
    throw new HttpError(405, "use GET for the page, POST or PUT for scan requests");
  }
  if (segments.length === 3 && segments[1] === "api" && segments[2] === "queue") {
    if (method !== "GET") throw new HttpError(405, "use GET");
    return handleQueueApi(res, deps);
  }
  throw new HttpError(404, "no such route");
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
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (error instanceof HttpError) {
    if (error.status === 413) res.setHeader("connection", "close");
    return sendJson(res, error.status, { error: error.message, ...error.details });
  }
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
