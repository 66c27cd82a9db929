import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { UserError } from "../domain.js";
import { html } from "../lib/html.js";
import { formatLoopbackRedirect } from "./authorization-request.js";
import { readAuthorizationResponse } from "./authorization-response.js";

/** A listener on 127.0.0.1 that receives the browser's redirect after consent. */
export interface LoopbackListener {
  port: number;
  redirectUri: string;
  /** Settles with the code once the browser arrives (or with the UserError it brought). */
  code: Promise<string>;
  /** Sets the `state` the redirect must carry; known only once the request is built. */
  expect(state: string): void;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:`port` (0 = any free port). */
export async function startLoopbackListener(port: number): Promise<LoopbackListener> {
  let expectedState: string | undefined;
  let settle: { resolve(code: string): void; reject(error: Error): void } | undefined;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // The caller may be waiting on the pasted path instead; never leave this unhandled.
  code.catch(() => undefined);

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const params = url.searchParams;
    if (url.pathname !== "/" || req.method !== "GET") return answer(res, 404, "Not found.");
    if (expectedState === undefined || !(params.has("code") || params.has("error"))) {
      return answer(res, 400, "This address only receives the answer of the Google consent screen.");
    }
    try {
      const received = readAuthorizationResponse(params, expectedState);
      answer(res, 200, "scanarr received the authorization. You can close this tab and return to the terminal.");
      settle?.resolve(received);
    } catch (error) {
      const message = error instanceof UserError ? error.message : "The authorization answer could not be read.";
      answer(res, 400, message);
      settle?.reject(error instanceof Error ? error : new UserError(message));
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new UserError(`Port ${port} on 127.0.0.1 is already in use; pass another --port (0 picks a free one).`, 2)
          : error,
      );
    });
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;

  return {
    port: bound,
    redirectUri: formatLoopbackRedirect(bound),
    code,
    expect(state: string) {
      expectedState = state;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function answer(res: ServerResponse, status: number, message: string): void {
  const body = html`<!doctype html><html><head><meta charset="utf-8"><title>scanarr authorize</title></head><body><p>${message}</p></body></html>`;
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(body.text);
}
