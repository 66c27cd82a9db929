import { arrHttp, readSystemStatus } from "../../arr/client.js";
import { ARR_KIND_INFO } from "../../arr/kinds.js";
import { listItems, listRootFolders } from "../../arr/library.js";
import { type HttpClient, isFields } from "../../http/client.js";
import type { KeyClientOptions } from "../factory.js";
import { parseServerUrl } from "../server-url.js";

/** Sonarr or Radarr as a scan target: the app (its API facts are in arr/kinds.ts) and its rescan command. */
export interface ArrTargetApp {
  kind: "sonarr" | "radarr";
  /** The command body that rescans one item's folder: `{"name":"RescanSeries","seriesId":3}`. */
  rescan(id: number): Record<string, unknown>;
}

/** One series or movie: its id, title and folder (in the app's path form). */
export interface ArrItem {
  id: number;
  title: string;
  path: string;
}

export interface ArrClientOptions extends KeyClientOptions {
  app: ArrTargetApp;
}

/**
 * Sonarr's or Radarr's v3 API as a scan target needs it: root folders, the
 * items with their paths and `/system/status` as src/arr reads them for
 * set-up, and `POST /api/v3/command`, through the one *arr HTTP client
 * (arr/client.ts). The API key travels in `X-Api-Key`, never in the URL.
 */
export class ArrClient {
  readonly where: string;
  readonly app: ArrTargetApp & { appName: string; noun: string };
  private readonly http: HttpClient;
  private readonly apiRoot: string;

  constructor(options: ArrClientOptions) {
    const root = parseServerUrl(options.baseUrl, options.urlKey, options.credentialKey);
    const info = ARR_KIND_INFO[options.app.kind];
    this.where = root;
    this.app = { ...options.app, appName: info.appName, noun: info.itemNoun };
    this.apiRoot = info.apiRoot;
    this.http = arrHttp(root, options.apiKey, info, {
      configKeys: { urlKey: options.urlKey, credentialKey: options.credentialKey },
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    });
  }

  /** `GET /api/v3/rootfolder`: the folders the app keeps its items in. */
  rootFolders(): Promise<Array<{ id: number; path: string }>> {
    return listRootFolders(this.http, (e) => [{ id: readId(e), path: readPath(e) }]);
  }

  /** `GET /api/v3/series` or `/api/v3/movie`: every item with its folder; only id, title and path are kept. */
  items(): Promise<ArrItem[]> {
    const title = (e: unknown) => (isFields(e) && typeof e.title === "string" ? e.title : "");
    return listItems(this.http, this.app.kind, (e) => [{ id: readId(e), title: title(e), path: readPath(e) }]);
  }

  /** `GET /api/v3/system/status`: which app answers, and its version. */
  async status(): Promise<{ appName: string; version: string }> {
    const status = await readSystemStatus(this.http, this.apiRoot);
    if (status === undefined) throw this.http.unavailable(`answered 404 when asked for ${this.apiRoot}/system/status`);
    return status;
  }

  /** `POST /api/v3/command` with the rescan of one item; resolves when the app queued it. */
  async rescan(item: ArrItem): Promise<void> {
    await this.http.call("POST", "/command", `rescan the ${this.app.noun} ${item.title} (${item.path})`, {
      json: this.app.rescan(item.id),
    });
  }
}

/** A delivery needs every entry whole: one without a numeric id or a path makes the list unreadable. */
function readId(entry: unknown): number {
  if (!isFields(entry) || typeof entry.id !== "number" || !Number.isInteger(entry.id)) throw new Error("an entry has no numeric id");
  return entry.id;
}

function readPath(entry: unknown): string {
  if (!isFields(entry) || typeof entry.path !== "string" || entry.path === "") throw new Error("an entry has no path");
  return entry.path;
}
