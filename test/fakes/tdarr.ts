import type { ServerResponse } from "node:http";
import { createWaiter, sendJson, startLoopback, type Availability, type FakeRequest } from "./loopback.js";

export interface FakeTdarrOptions {
  /** Tdarr's API key when its authentication is on (sent as `x-api-key`); none: auth off. */
  apiKey?: string;
  /** Library ids (`dbID`) Tdarr has. */
  libraries?: string[];
}

/** One accepted `scan-files` call: the library and the paths. */
export interface TdarrScan {
  dbID: string;
  arrayOrPath: string[];
  mode: string;
}

export interface FakeTdarr {
  url: string;
  apiKey: string | undefined;
  scans: TdarrScan[];
  /** Every request that arrived (method and path), answered or not. */
  requests: Array<{ method: string; path: string }>;
  setAvailability(next: Availability): Promise<void>;
  waitForScans(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Tdarr's server on 127.0.0.1, for the endpoints a scan target uses
 * (round3.md §6): `POST /api/v2/scan-files` with
 * `{"data":{"scanConfig":{"dbID","arrayOrPath","mode"}}}`, and `GET
 * /api/v2/status`. With an API key set, a request without the right
 * `x-api-key` gets 401. A body not of that shape, or an unknown library,
 * gets 400 (how Tdarr words those was not checked; the status is what
 * matters to the target).
 */
export async function startFakeTdarr(options: FakeTdarrOptions = {}): Promise<FakeTdarr> {
  const scans: TdarrScan[] = [];
  const requests: FakeTdarr["requests"] = [];
  const waiter = createWaiter();
  const libraries = new Set(options.libraries ?? ["lib-tv"]);

  const handle = ({ req, url, body }: FakeRequest, res: ServerResponse): void => {
    if (options.apiKey !== undefined && req.headers["x-api-key"] !== options.apiKey) return sendJson(res, 401, { message: "Unauthorized" });
    if (req.method === "GET" && url.pathname === "/api/v2/status") {
      return sendJson(res, 200, { status: "good", isProduction: true, os: "linux", version: "2.58.02", uptime: 1234 });
    }
    if (req.method === "POST" && url.pathname === "/api/v2/scan-files") {
      const scan = readScan(body);
      if (!scan || !libraries.has(scan.dbID)) return sendJson(res, 400, { message: "bad scanConfig" });
      scans.push(scan);
      waiter.notify();
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end("OK");
      return;
    }
    sendJson(res, 404, { message: "Not Found" });
  };
  const server = await startLoopback(handle, ({ req, url }) => requests.push({ method: req.method ?? "GET", path: url.pathname }));
  return {
    url: server.url,
    apiKey: options.apiKey,
    scans,
    requests,
    setAvailability: (next) => server.setAvailability(next),
    waitForScans: (count, timeoutMs) =>
      waiter.waitFor(() => scans.length >= count, `${count} Tdarr scans (saw ${scans.length})`, timeoutMs),
    close: () => server.close(),
  };
}

function readScan(body: string): TdarrScan | undefined {
  try {
    const config = (JSON.parse(body) as { data?: { scanConfig?: Record<string, unknown> } }).data?.scanConfig;
    const { dbID, arrayOrPath, mode } = config ?? {};
    if (typeof dbID !== "string" || typeof mode !== "string" || !Array.isArray(arrayOrPath)) return undefined;
    if (!arrayOrPath.every((p): p is string => typeof p === "string")) return undefined;
    return { dbID, arrayOrPath, mode };
  } catch {
    return undefined;
  }
}
