import { request as httpRequest, type IncomingMessage } from "node:http";

/** What scanarr's clients pass: a string body, plain headers, a time-out signal. */
export interface HttpFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Only "manual": redirects are handed back, never followed (they would carry the credential elsewhere). */
  redirect?: "manual";
}

/** The part of a fetch Response the clients read. */
export interface HttpFetchResponse {
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  body: { cancel(): Promise<void> } | null;
}

/** The global `fetch` fits this too, so tests may still pass it or a fake of it. */
export type HttpFetch = (url: string, init: HttpFetchInit) => Promise<HttpFetchResponse>;

/**
 * A fetch for scanarr's own outgoing calls over node:http. The global fetch
 * loads undici and compiles its WebAssembly HTTP parser at the first request,
 * which leaves about 16 MB more resident for the life of the process (issue
 * 26, bench/README.md); node:http is already loaded by the server.
 *
 * node:https (and TLS) load at the first https URL.
 *
 * Like fetch with `redirect: "manual"`: a 3xx is an answer; a request that got
 * no answer rejects with the node error (its `code`: ECONNREFUSED, ENOTFOUND),
 * or with the signal's reason (a TimeoutError) when the signal ended it.
 */
export const httpFetch: HttpFetch = async (url, init) => {
  const target = new URL(url);
  if (target.protocol !== "http:" && target.protocol !== "https:") throw new TypeError(`cannot fetch ${target.protocol} URLs`);
  const send = target.protocol === "https:" ? (await import("node:https")).request : httpRequest;
  return new Promise((resolve, reject) => {
    const { signal } = init;
    if (signal?.aborted) return reject(signal.reason);
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(init.body));
    const req = send(target, { method: init.method ?? "GET", headers, signal }, (res) => resolve(responseOf(res, signal)));
    req.once("error", (error) => reject(signal?.aborted ? signal.reason : error));
    req.end(init.body);
  });
};

function responseOf(res: IncomingMessage, signal: AbortSignal | undefined): HttpFetchResponse {
  const status = res.statusCode ?? 0;
  return {
    status,
    ok: status >= 200 && status < 300,
    headers: {
      get(name) {
        const value = res.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
    text: () => readText(res, signal),
    body: {
      cancel: async () => void res.destroy(),
    },
  };
}

function readText(res: IncomingMessage, signal: AbortSignal | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => (text += chunk));
    res.once("end", () => resolve(text));
    res.once("error", (error) => reject(signal?.aborted ? signal.reason : error));
    // A connection cut mid-body (or our signal) closes the stream without an end.
    res.once("close", () => {
      if (!res.complete) reject(signal?.aborted ? signal.reason : new Error("the connection closed before the whole answer arrived"));
    });
  });
}
