import type { ServerResponse } from "node:http";
import { createWaiter, sendJson, sendProblem, startLoopback, type Availability, type FakeRequest } from "./loopback.js";

export type ArrKind = "sonarr" | "radarr";

/** A series or movie as the app lists it (only the fields a scan target reads, and a few more). */
export interface FakeArrItem {
  id: number;
  title: string;
  path: string;
}

export interface FakeArrTargetOptions {
  kind: ArrKind;
  apiKey?: string;
  rootFolders: string[];
  items: FakeArrItem[];
}

export interface FakeArrTarget {
  url: string;
  apiKey: string;
  /** The bodies of every accepted `POST /api/v3/command`. */
  commands: Array<Record<string, unknown>>;
  /** How often the series or movie list was fetched. */
  itemListFetches: number;
  /** Replaces the items (a series added in the app). */
  setItems(items: FakeArrItem[]): void;
  setAvailability(next: Availability): Promise<void>;
  waitForCommands(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const APP = {
  sonarr: { appName: "Sonarr", version: "4.0.15.2941", itemsPath: "/api/v3/series", commands: ["RescanSeries", "RefreshSeries"] },
  radarr: { appName: "Radarr", version: "5.26.2.10099", itemsPath: "/api/v3/movie", commands: ["RescanMovie", "RefreshMovie"] },
} as const;

/**
 * Sonarr or Radarr on 127.0.0.1 as a scan target meets it (round3.md §3):
 * `X-Api-Key` (or `?apikey=`) on every call, 401 otherwise; `GET
 * /api/v3/system/status`, `/api/v3/rootfolder`, `/api/v3/series` or
 * `/api/v3/movie`; `POST /api/v3/command` answers 201 with the queued
 * command, 400 for a command the app does not know. Named so as not to
 * clash with the set-up helpers' fake of the same apps.
 */
export async function startFakeArrTarget(options: FakeArrTargetOptions): Promise<FakeArrTarget> {
  const app = APP[options.kind];
  const apiKey = options.apiKey ?? "0123456789abcdef0123456789abcdef";
  const commands: Array<Record<string, unknown>> = [];
  const waiter = createWaiter();
  let items = options.items;
  let itemListFetches = 0;
  let nextCommandId = 100;

  const handle = ({ req, url, body }: FakeRequest, res: ServerResponse): void => {
    const given = req.headers["x-api-key"] ?? url.searchParams.get("apikey");
    if (given !== apiKey) return sendProblem(res, 401, "Unauthorized");
    const route = `${req.method} ${url.pathname}`;
    if (route === "GET /api/v3/system/status")
      return sendJson(res, 200, { appName: app.appName, instanceName: app.appName, version: app.version });
    if (route === "GET /api/v3/rootfolder") {
      return sendJson(
        res,
        200,
        options.rootFolders.map((path, i) => ({ id: i + 1, path, accessible: true, freeSpace: 1e12, unmappedFolders: [] })),
      );
    }
    if (route === `GET ${app.itemsPath}`) {
      itemListFetches++;
      return sendJson(
        res,
        200,
        items.map((item) => ({ ...item, monitored: true, sortTitle: item.title.toLowerCase(), added: "2024-01-01T00:00:00Z" })),
      );
    }
    if (route === "POST /api/v3/command") {
      let command: Record<string, unknown>;
      try {
        command = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return sendProblem(res, 400, "Invalid request body");
      }
      if (!(app.commands as readonly string[]).includes(String(command.name))) return sendProblem(res, 400, "Unknown command");
      commands.push(command);
      waiter.notify();
      return sendJson(res, 201, {
        id: nextCommandId++,
        name: command.name,
        body: command,
        status: "queued",
        queued: new Date().toISOString(),
      });
    }
    sendProblem(res, 404, "Not Found");
  };
  const server = await startLoopback(handle, undefined, { server: options.kind, label: app.appName });
  return {
    url: server.url,
    apiKey,
    commands,
    get itemListFetches() {
      return itemListFetches;
    },
    setItems(next) {
      items = next;
    },
    setAvailability: (next) => server.setAvailability(next),
    waitForCommands: (count, timeoutMs) =>
      waiter.waitFor(() => commands.length >= count, `${count} ${app.appName} commands (saw ${commands.length})`, timeoutMs),
    close: () => server.close(),
  };
}
