import { HttpClient } from "../../http/client.js";
import { parseServerUrl } from "../server-url.js";

export interface AutoscanApiOptions {
  /** Where the other instance listens, e.g. `http://autoscan:3030`; a trailing `/triggers/manual` is accepted. */
  baseUrl: string;
  /** HTTP Basic credentials; both empty when the other side has no authentication. */
  username: string;
  password: string;
  /** Config keys of the URL and the credentials, for messages. */
  urlKey: string;
  credentialKey: string;
  /** Per request; 30 s by default. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * An autoscan-compatible manual trigger (autoscan.md §2.7–2.9): autoscan
 * itself, a fork near the media server, or another scanarr. `HEAD
 * /triggers/manual` answers 200 when it is up (and the credentials are
 * right); any other method with `dir` parameters queues those folders.
 */
export class AutoscanApiClient {
  readonly where: string;
  private readonly http: HttpClient;

  constructor(options: AutoscanApiOptions) {
    const root = parseServerUrl(options.baseUrl, options.urlKey, options.credentialKey).replace(/\/triggers\/manual$/, "");
    this.where = root;
    const headers: Record<string, string> = {};
    const secrets = [options.password];
    if (options.username !== "" || options.password !== "") {
      const encoded = Buffer.from(`${options.username}:${options.password}`, "utf8").toString("base64");
      headers.Authorization = `Basic ${encoded}`;
      secrets.push(encoded);
    }
    this.http = new HttpClient({
      label: { kind: "autoscan", where: root, credential: options.credentialKey },
      root,
      headers,
      secrets,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    });
  }

  /** `HEAD /triggers/manual`: resolves when the trigger is up and accepts our credentials. */
  async available(): Promise<void> {
    await this.http.call("HEAD", "/triggers/manual", "say whether it is up");
  }

  /** `POST /triggers/manual?dir=a&dir=b`: one call may carry several folders. */
  async trigger(dirs: readonly string[]): Promise<void> {
    const query = new URLSearchParams(dirs.map((dir): [string, string] => ["dir", dir]));
    const action = dirs.length === 1 ? `scan ${dirs[0]}` : `scan ${dirs.length} folders (${dirs[0]}, …)`;
    await this.http.call("POST", `/triggers/manual?${query}`, action);
  }
}
