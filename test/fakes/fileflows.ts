import type { ServerResponse } from "node:http";
import { createWaiter, sendJson, sendProblem, startLoopback, type Availability, type FakeRequest } from "./loopback.js";

export interface FakeFlowLibrary {
  Uid: string;
  Name: string;
  Enabled: boolean;
  Path: string;
  /** null: the library has no flow. */
  Flow: { Uid: string; Name: string } | null;
}

/** A file FileFlows already knows. */
export interface FakeFlowFile {
  Uid: string;
  Name: string;
  FlowUid: string;
}

export interface FakeFileFlowsOptions {
  libraries?: FakeFlowLibrary[];
  /** Known files by path. */
  files?: Record<string, FakeFlowFile>;
  /** FileFlows' security turned on: a request without its credential (scanarr sends none) gets 401. */
  security?: boolean;
}

export interface FakeFileFlows {
  url: string;
  /** Each accepted reprocess: the Uids. */
  reprocessed: string[][];
  /** Each accepted manually-add: the flow and the files. */
  added: Array<{ FlowUid: string; Files: string[] }>;
  /** The paths searched for, in order. */
  searches: string[];
  requests: Array<{ method: string; path: string }>;
  setAvailability(next: Availability): Promise<void>;
  waitForCalls(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const ROUTES: Record<string, string> = {
  "/api/library": "GET",
  "/api/library-file/search": "POST",
  "/api/library-file/reprocess": "POST",
  "/api/library-file/manually-add": "POST",
};

/**
 * FileFlows on 127.0.0.1, for what a scan target uses (round4.md §3, PascalCase
 * JSON): `GET /api/library`, `POST /api/library-file/search {"Path", "Limit"}`,
 * `reprocess {"Uids", "CustomVariables", "Mode", "BottomOfQueue"}` and
 * `manually-add {"FlowUid", "Files", "CustomVariables"}`. As an ASP.NET
 * server: 404 for an unknown route, 405 for a known one with another method,
 * 415 for a body that is not JSON and 400 (problem details) for a body
 * missing what the call needs; a `manually-add` to a flow no library has is
 * refused with 400 too. With its security on, every request gets 401.
 */
export async function startFakeFileFlows(options: FakeFileFlowsOptions = {}): Promise<FakeFileFlows> {
  const libraries = options.libraries ?? [
    { Uid: "lib-movies", Name: "Movies", Enabled: true, Path: "/media/movies", Flow: { Uid: "flow-h265", Name: "H265" } },
  ];
  const files = options.files ?? {};
  const reprocessed: string[][] = [];
  const added: FakeFileFlows["added"] = [];
  const searches: string[] = [];
  const requests: FakeFileFlows["requests"] = [];
  const waiter = createWaiter();

  const answer = (route: string, body: Record<string, unknown>, res: ServerResponse): void => {
    if (route === "/api/library-file/search") {
      if (typeof body.Path !== "string" || typeof body.Limit !== "number")
        return sendProblem(res, 400, "One or more validation errors occurred.");
      searches.push(body.Path);
      const file = files[body.Path];
      return sendJson(res, 200, file && body.Limit > 0 ? [{ ...file, Path: body.Path }] : []);
    }
    if (route === "/api/library-file/reprocess") {
      if (
        !isStrings(body.Uids) ||
        !isFields(body.CustomVariables) ||
        typeof body.Mode !== "number" ||
        typeof body.BottomOfQueue !== "boolean"
      )
        return sendProblem(res, 400, "One or more validation errors occurred.");
      reprocessed.push(body.Uids);
    } else {
      const { FlowUid, Files } = body;
      if (typeof FlowUid !== "string" || !isStrings(Files) || !isFields(body.CustomVariables))
        return sendProblem(res, 400, "One or more validation errors occurred.");
      if (!libraries.some((l) => l.Flow?.Uid === FlowUid)) return sendProblem(res, 400, "Flow not found");
      added.push({ FlowUid, Files });
    }
    waiter.notify();
    res.writeHead(200);
    res.end();
  };

  const handle = ({ req, url, body }: FakeRequest, res: ServerResponse): void => {
    if (options.security) return sendProblem(res, 401, "Unauthorized");
    const method = ROUTES[url.pathname];
    if (method === undefined) return sendProblem(res, 404, "Not Found");
    if (req.method !== method) return sendProblem(res, 405, "Method Not Allowed");
    if (method === "GET") return sendJson(res, 200, libraries);
    if (!req.headers["content-type"]?.startsWith("application/json")) return sendProblem(res, 415, "Unsupported Media Type");
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return sendProblem(res, 400, "One or more validation errors occurred.");
    }
    if (!isFields(parsed)) return sendProblem(res, 400, "One or more validation errors occurred.");
    answer(url.pathname, parsed, res);
  };

  const server = await startLoopback(handle, ({ req, url }) => requests.push({ method: req.method ?? "GET", path: url.pathname }));
  return {
    url: server.url,
    reprocessed,
    added,
    searches,
    requests,
    setAvailability: (next) => server.setAvailability(next),
    waitForCalls: (count, timeoutMs) =>
      waiter.waitFor(() => reprocessed.length + added.length >= count, `${count} FileFlows calls`, timeoutMs),
    close: () => server.close(),
  };
}

function isFields(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string");
}
