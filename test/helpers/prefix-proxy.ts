import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

export interface PrefixProxy {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/**
 * A reverse proxy like the nginx block in docs/dashboard.md: serves
 * `<prefix>/…` from `upstream/…` (the prefix stripped), adds
 * X-Forwarded-For/-Proto and rewrites Host to the upstream's, streaming both
 * ways (server-sent events included). Anything outside the prefix is 404.
 */
export async function startPrefixProxy(prefix: string, upstream: string): Promise<PrefixProxy> {
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    if (!path.startsWith(`${prefix}/`)) {
      res.writeHead(404).end();
      return;
    }
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: path.slice(prefix.length),
        headers: { ...req.headers, host: target.host, "x-forwarded-for": req.socket.remoteAddress ?? "", "x-forwarded-proto": "http" },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on("error", () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
