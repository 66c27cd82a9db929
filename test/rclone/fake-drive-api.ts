import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A loopback stand-in for Drive v3 drives.list and Google's token endpoint
 * (JWT bearer grant for service accounts), answering as Google does: 401 for
 * an unknown token, pages of `pageSize` with nextPageToken.
 */
export interface FakeDriveApi {
  url: string;
  /** Requests seen, as "METHOD path?query". */
  requests: string[];
  close(): Promise<void>;
}

export async function startFakeDriveApi(drives: Array<{ id: string; name: string }>, accessToken: string): Promise<FakeDriveApi> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.method === "POST" && url.pathname === "/token") {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const form = new URLSearchParams(body);
        if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer" || !form.get("assertion"))
          return json(400, { error: "invalid_grant" });
        json(200, { access_token: accessToken, token_type: "Bearer", expires_in: 3599 });
      });
      return;
    }
    if (req.method !== "GET" || url.pathname !== "/drive/v3/drives") return json(404, { error: { code: 404, message: "Not Found" } });
    if (req.headers.authorization !== `Bearer ${accessToken}`)
      return json(401, { error: { code: 401, message: "Request had invalid authentication credentials." } });
    const size = Number(url.searchParams.get("pageSize") ?? "10");
    const start = Number(url.searchParams.get("pageToken") ?? "0");
    const page = drives.slice(start, start + size).map((drive) => ({ kind: "drive#drive", ...drive }));
    const next = start + size < drives.length ? { nextPageToken: String(start + size) } : {};
    json(200, { kind: "drive#driveList", drives: page, ...next });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
