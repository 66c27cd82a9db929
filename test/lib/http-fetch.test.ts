import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { httpFetch } from "../../src/lib/http-fetch.js";

let server: Server | undefined;

afterEach(async () => {
  const open = server;
  server = undefined;
  if (!open) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

/** A loopback server answering with `handle`; resolves with its URL. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<string> {
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("httpFetch", () => {
  it("sends the method, headers and body and hands back the status, headers and text", async () => {
    const url = await serve((req, res, body) => {
      res.writeHead(201, { "content-type": "application/json; charset=utf-8", "x-seen": `${req.method} ${req.url}` });
      res.end(JSON.stringify({ body, token: req.headers["x-plex-token"], length: req.headers["content-length"] }));
    });
    const res = await httpFetch(`${url}/library/sections?x=1`, {
      method: "PUT",
      headers: { "X-Plex-Token": "secret" },
      body: "ünïcode",
    });
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("x-seen")).toBe("PUT /library/sections?x=1");
    expect(res.headers.get("x-missing")).toBeNull();
    expect(JSON.parse(await res.text())).toEqual({ body: "ünïcode", token: "secret", length: String(Buffer.byteLength("ünïcode")) });
  });

  it("hands a redirect back instead of following it", async () => {
    let calls = 0;
    const url = await serve((_req, res) => {
      calls++;
      res.writeHead(302, { location: "/elsewhere" }).end();
    });
    const res = await httpFetch(`${url}/`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.ok).toBe(false);
    expect(res.headers.get("location")).toBe("/elsewhere");
    expect(calls).toBe(1);
  });

  it("rejects with the signal's TimeoutError when the server does not answer in time", async () => {
    const url = await serve(() => undefined);
    const error = await httpFetch(url, { signal: AbortSignal.timeout(100) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe("TimeoutError");
  });

  it("rejects reading the body when the time-out ends it half-way", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "100" });
      res.write("partial");
    });
    const res = await httpFetch(url, { signal: AbortSignal.timeout(300) });
    const error = await res.text().catch((e: unknown) => e);
    expect((error as Error).name).toBe("TimeoutError");
  });

  it("rejects with the system error code when nothing listens", async () => {
    const url = await serve(() => undefined);
    server?.close();
    const error = await httpFetch(url, {}).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe("ECONNREFUSED");
  });

  it("speaks TLS to an https URL (a plain HTTP server cannot answer it)", async () => {
    let calls = 0;
    const url = await serve((_req, res) => {
      calls++;
      res.end("plain");
    });
    const error = await httpFetch(url.replace("http:", "https:"), { signal: AbortSignal.timeout(5_000) }).catch((e: unknown) => e);
    expect(String((error as { code?: string }).code)).toMatch(/SSL|EPROTO/);
    expect(calls).toBe(0);
  });

  it("refuses a URL that is neither http nor https", async () => {
    await expect(httpFetch("ftp://127.0.0.1/", {})).rejects.toThrow("cannot fetch ftp: URLs");
  });
});
