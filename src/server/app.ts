import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../lib/logger.js";
import { ClientGoneError } from "./body.js";
import { createLiveEvents } from "./dashboard/events.js";
import { createDispatch } from "./dispatch.js";
import { HttpError, unwritableAnswer } from "./http-error.js";
import { createPassCheck } from "./pass.js";
import { sendJson } from "./respond.js";
import { ROUTES } from "./route-list.js";
import { createFormToken } from "./same-origin.js";
import type { RequestContext, ScanServerDeps } from "./types.js";
import { createTurnShare } from "./turn-share.js";
import { createWrongPassLog } from "./wrong-pass-log.js";
import { messageOf } from "../lib/errors.js";

/** The HTTP service: one request handler serving the route list (route-list.ts). */
export function createScanServer(deps: ScanServerDeps): Server {
  const wrongPass = createWrongPassLog(deps.logger, deps.clock);
  const dispatch = createDispatch(ROUTES, { passMatches: createPassCheck(deps.pass), noteWrongPass: wrongPass.note });
  const formToken = createFormToken();
  const live = deps.dashboard ? createLiveEvents(deps.dashboard.events) : undefined;
  const turns = createTurnShare();
  const server = createServer((req, res) => {
    const ctx: RequestContext = {
      req,
      res,
      url: new URL(req.url ?? "/", "http://scanarr.invalid"),
      remote: req.socket?.remoteAddress,
      deps,
      formToken,
      params: {},
      live,
      turns,
    };
    dispatch(ctx).catch((error: unknown) => fail(res, deps.logger, error));
  });
  server.on("close", () => {
    wrongPass.flush();
    deps.login?.flush();
  });
  server.on("connection", () => turns.noteConnection());
  answerHalfClosed(server);
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return server;
}

/**
 * A client that shuts down its side of the connection after sending its
 * request (`nc -N`, some proxies and HTTP libraries) still reads the answer.
 * By default node:http aborts the request and closes the connection at that
 * moment, so any request answered after an await (a big webhook's commit, the
 * dashboard page) got no answer at all, and the client retried a request that
 * was already queued. With this flag node keeps the connection open until the
 * answer is sent, then closes it; a body cut short by the close is still
 * refused (400) and nothing of it is read. The flag has been node:http's own
 * since 0.x, set on the server after construction; @types/node does not name it.
 */
function answerHalfClosed(server: Server): void {
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
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
  logger.error({ err: messageOf(error) }, "request failed");
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
