import { HttpClient, isFields } from "../../http/client.js";
import type { KeyClientOptions } from "../factory.js";
import { parseServerUrl } from "../server-url.js";

/**
 * Tdarr's server API (round3.md §6): `POST /api/v2/scan-files` asks a library
 * to look at paths now, as its folder watcher would; `GET /api/v2/status`
 * answers who it is. The API key, when set, travels in `x-api-key`.
 */
export class TdarrApiClient {
  readonly where: string;
  private readonly http: HttpClient;

  constructor(options: KeyClientOptions) {
    const root = parseServerUrl(options.baseUrl, options.urlKey, options.credentialKey);
    this.where = root;
    this.http = new HttpClient({
      label: { kind: "Tdarr", where: root, credential: options.credentialKey, urlKey: options.urlKey },
      root,
      headers: options.apiKey === "" ? {} : { "x-api-key": options.apiKey },
      secrets: options.apiKey === "" ? [] : [options.apiKey],
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    });
  }

  /** `GET /api/v2/status`: Tdarr's version, proving it answers (and takes the key). */
  async status(): Promise<string> {
    const answer = await this.http.call("GET", "/api/v2/status", "say its status");
    return this.http.readJson(answer, "say its status", (data) => {
      if (!isFields(data)) throw new Error("the status is not a JSON object");
      return typeof data.version === "string" ? data.version : "unknown";
    });
  }

  /** `POST /api/v2/scan-files`: the library `dbID` looks at `paths` now (files, or a folder). */
  async scanFiles(dbID: string, paths: readonly string[]): Promise<void> {
    const action = paths.length === 1 ? `scan ${paths[0]}` : `scan ${paths.length} files (${paths[0]}, …)`;
    await this.http.call("POST", "/api/v2/scan-files", action, {
      json: { data: { scanConfig: { dbID, arrayOrPath: paths, mode: "scanFolderWatcher" } } },
    });
  }
}
