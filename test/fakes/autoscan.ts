import type { ServerResponse } from "node:http";
import { createWaiter, startLoopback, type Availability, type FakeRequest } from "./loopback.js";

export interface FakeAutoscanOptions {
  /** HTTP Basic credentials; authentication applies only when both are set, as in autoscan. */
  username?: string;
  password?: string;
}

export interface FakeAutoscanRequest {
  method: string;
  url: string;
  authorized: boolean;
}

export interface FakeAutoscan {
  url: string;
  /** The `dir` values of each accepted manual trigger, one array per call. */
  triggers: string[][];
  /** Every request that arrived, answered or not (down, hanging). */
  requests: FakeAutoscanRequest[];
  setAvailability(next: Availability): Promise<void>;
  waitForTriggers(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * autoscan's manual trigger on 127.0.0.1 (autoscan.md §2.7–2.8): Basic auth
 * (realm "Autoscan 1.x") when configured, `HEAD /triggers/manual` → 200, GET
 * → the HTML form, any other method with at least one `dir` → 200, without
 * one → 400; `GET /health` → 200 without auth.
 */
export async function startFakeAutoscan(options: FakeAutoscanOptions = {}): Promise<FakeAutoscan> {
  const triggers: string[][] = [];
  const requests: FakeAutoscanRequest[] = [];
  const waiter = createWaiter();
  const expected =
    options.username && options.password ? `Basic ${Buffer.from(`${options.username}:${options.password}`).toString("base64")}` : undefined;

  const isAuthorized = ({ req }: FakeRequest): boolean => expected === undefined || req.headers.authorization === expected;
  const observe = (request: FakeRequest): void => {
    requests.push({ method: request.req.method ?? "GET", url: request.req.url ?? "/", authorized: isAuthorized(request) });
  };
  const handle = (request: FakeRequest, res: ServerResponse): void => {
    const { req, url } = request;
    const authorized = isAuthorized(request);
    if (url.pathname === "/health" && req.method === "GET") return send(res, 200, "");
    if (url.pathname !== "/triggers/manual") return send(res, 404, "404 page not found\n");
    if (!authorized) {
      res.setHeader("WWW-Authenticate", 'Basic realm="Autoscan 1.x"');
      return send(res, 401, "Unauthorized\n");
    }
    if (req.method === "HEAD") return send(res, 200, "");
    if (req.method === "GET") return send(res, 200, "<!doctype html><title>autoscan</title><form method=post></form>", "text/html");
    const dirs = url.searchParams.getAll("dir");
    if (dirs.length === 0) return send(res, 400, "Bad Request\n");
    triggers.push(dirs);
    waiter.notify();
    send(res, 200, "");
  };

  const server = await startLoopback(handle, observe);
  return {
    url: server.url,
    triggers,
    requests,
    setAvailability: (next) => server.setAvailability(next),
    waitForTriggers: (count, timeoutMs) =>
      waiter.waitFor(() => triggers.length >= count, `${count} manual triggers (saw ${triggers.length})`, timeoutMs),
    close: () => server.close(),
  };
}

function send(res: ServerResponse, status: number, body: string, type = "text/plain; charset=utf-8"): void {
  res.writeHead(status, { "Content-Type": type });
  res.end(body);
}
