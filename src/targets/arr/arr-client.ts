import { arrHttp } from "../../arr/client.js";
import { ARR_KIND_INFO } from "../../arr/kinds.js";
import { type HttpClient, isFields, type KeyClientOptions } from "../http-client.js";
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
 * items with their paths, `/system/status`, and `POST /api/v3/command`,
 * through the one *arr HTTP client (arr/client.ts). The API key travels in
 * `X-Api-Key`, never in the URL.
 */
export class ArrClient {
  readonly where: string;
  readonly app: ArrTargetApp & { appName: string; noun: string };
  private readonly http: HttpClient;
  private readonly itemsPath: string;

  constructor(options: ArrClientOptions) {
    const root = parseServerUrl(options.baseUrl, options.urlKey, options.credentialKey);
    const info = ARR_KIND_INFO[options.app.kind];
    this.where = root;
    this.app = { ...options.app, appName: info.appName, noun: info.itemNoun };
    this.itemsPath = info.itemsPath;
    this.http = arrHttp(root, options.apiKey, info, {
      configKeys: { urlKey: options.urlKey, credentialKey: options.credentialKey },
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    });
  }

  /** `GET /api/v3/rootfolder`: the folders the app keeps its items in. */
  async rootFolders(): Promise<Array<{ id: number; path: string }>> {
    const action = "list its root folders";
    const answer = await this.http.call("GET", "/rootfolder", action);
    return this.http.readJson(answer, action, (data) => readList(data, "root folder", (e) => ({ id: readId(e), path: readPath(e) })));
  }

  /** `GET /api/v3/series` or `/api/v3/movie`: every item with its folder; only id, title and path are kept. */
  async items(): Promise<ArrItem[]> {
    const action = `list its ${this.app.noun === "series" ? "series" : `${this.app.noun}s`}`;
    const answer = await this.http.call("GET", this.itemsPath, action);
    return this.http.readJson(answer, action, (data) =>
      readList(data, this.app.noun, (e) => ({ id: readId(e), title: typeof e.title === "string" ? e.title : "", path: readPath(e) })),
    );
  }

  /** `GET /api/v3/system/status`: which app answers, and its version. */
  async status(): Promise<{ appName: string; version: string }> {
    const action = "say its status";
    const answer = await this.http.call("GET", "/system/status", action);
    return this.http.readJson(answer, action, (data) => {
      if (!isFields(data)) throw new Error("the status is not a JSON object");
      return { appName: String(data.appName ?? ""), version: String(data.version ?? "") };
    });
  }

  /** `POST /api/v3/command` with the rescan of one item; resolves when the app queued it. */
  async rescan(item: ArrItem): Promise<void> {
    await this.http.call("POST", "/command", `rescan the ${this.app.noun} ${item.title} (${item.path})`, {
      json: this.app.rescan(item.id),
    });
  }
}

function readList<T>(data: unknown, noun: string, read: (entry: Record<string, unknown>) => T): T[] {
  if (!Array.isArray(data)) throw new Error(`the ${noun} list is not a JSON array`);
  return data.map((entry) => {
    if (!isFields(entry)) throw new Error(`a ${noun} entry is not a JSON object`);
    return read(entry);
  });
}

function readId(entry: Record<string, unknown>): number {
  if (typeof entry.id !== "number" || !Number.isInteger(entry.id)) throw new Error("an entry has no numeric id");
  return entry.id;
}

function readPath(entry: Record<string, unknown>): string {
  if (typeof entry.path !== "string" || entry.path === "") throw new Error("an entry has no path");
  return entry.path;
}
