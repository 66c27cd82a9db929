import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { watchExchange, type SpecWatch } from "./spec/exchange.js";
import { recordViolation } from "./spec/violations.js";

/**
 * How a fake server behaves as a whole: "up" answers, "down" answers 503
 * (a server starting or behind a proxy), "refuse" closes the port so
 * connections are refused, "hang" reads requests and never answers.
 */
export type Availability = "up" | "down" | "refuse" | "hang";

/** A request with its whole body read, handed to a fake's handler. */
export interface FakeRequest {
  req: IncomingMessage;
  url: URL;
  body: string;
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`; stays the same across "refuse" and back. */
  url: string;
  setAvailability(next: Availability): Promise<void>;
  close(): Promise<void>;
}

/**
 * The fakes' common ground: a server on 127.0.0.1:<random port> that can be
 * told to fail. `observe` sees every request that arrives, answered or not
 * (a fake records its requests there); `handle` answers while "up". With
 * `spec`, every exchange is checked against the server's API description
 * (spec/exchange.ts).
 */
export async function startLoopback(
  handle: (request: FakeRequest, res: ServerResponse) => void,
  observe: (request: FakeRequest) => void = () => undefined,
  spec?: SpecWatch,
): Promise<LoopbackServer> {
  let availability: Availability = "up";
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { req, url: new URL(req.url ?? "/", "http://fake"), body: Buffer.concat(chunks).toString("utf8") };
      observe(request);
      if (spec) void checkThen(spec, request, res, () => answer(request, res));
      else answer(request, res);
    });
  });
  const answer = (request: FakeRequest, res: ServerResponse): void => {
    if (availability === "hang") return;
    if (availability === "down") {
      res.writeHead(503, { "Content-Type": "text/plain" });
      res.end("Service Unavailable");
      return;
    }
    handle(request, res);
  };
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;

  const stop = async (): Promise<void> => {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    async setAvailability(next) {
      if (next === "refuse") await stop();
      else if (!server.listening) {
        server.listen(port, "127.0.0.1");
        await once(server, "listening");
      }
      availability = next;
    },
    close: stop,
  };
}

/** Checks an exchange against the description, then lets the fake answer (also when the check itself failed). */
export async function checkThen(spec: SpecWatch, request: FakeRequest, res: ServerResponse, next: () => void): Promise<void> {
  try {
    await watchExchange(spec, request, res);
  } catch (error) {
    recordViolation(`${spec.label}: could not check ${request.req.method} ${request.url.pathname}: ${String(error)}`);
  }
  next();
}

/** Answers with a JSON body (or none for 204). */
export function sendJson(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

/** ASP.NET Core's error body for 400/401/403/404 (RFC 7807 problem details). */
export function sendProblem(res: ServerResponse, status: number, title: string): void {
  res.writeHead(status, { "Content-Type": "application/problem+json; charset=utf-8" });
  res.end(JSON.stringify({ type: "https://tools.ietf.org/html/rfc9110", title, status }));
}

/** Resolves once `check()` holds, re-checked on every `notify()`; rejects after `timeoutMs`. */
export function createWaiter(): { notify(): void; waitFor(check: () => boolean, what: string, timeoutMs?: number): Promise<void> } {
  const waiters = new Set<() => void>();
  return {
    notify() {
      for (const waiter of [...waiters]) waiter();
    },
    waitFor(check, what, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const test = (): void => {
          if (!check()) return;
          waiters.delete(test);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(test);
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
        }, timeoutMs);
        waiters.add(test);
        test();
      });
    },
  };
}
