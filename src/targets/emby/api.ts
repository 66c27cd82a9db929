import type { Library } from "../../domain.js";
import { HttpClient } from "../http-client.js";
import { describeUpdates, mediaUpdatedBody, readSelectableFolders, type MediaUpdate } from "../media-browser.js";
import { parseServerUrl } from "../server-url.js";

export interface EmbyApiOptions {
  /** The server's address, `http://emby:8096` or `http://emby:8096/emby`: both reach the same API. */
  baseUrl: string;
  /** An API key (Settings → Advanced → API Keys). */
  token: string;
  /** Config keys of the URL and the token, for messages. */
  urlKey: string;
  tokenKey: string;
  /** Per request; 30 s by default. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * The Emby HTTP API, reduced to what a scan trigger needs (apis.md §4.2).
 * Every call goes under `/emby` (the spec's server base); a URL that already
 * ends in `/emby` is not given a second one. The key travels only in the
 * `X-Emby-Token` header, never as `api_key` in a URL.
 */
export class EmbyApiClient {
  readonly where: string;
  private readonly http: HttpClient;

  constructor(options: EmbyApiOptions) {
    const base = parseServerUrl(options.baseUrl, options.urlKey, options.tokenKey);
    const root = /\/emby$/i.test(base) ? base : `${base}/emby`;
    this.where = root;
    this.http = new HttpClient({
      label: { kind: "Emby", where: root, credential: options.tokenKey },
      root,
      headers: { "X-Emby-Token": options.token },
      secrets: [options.token],
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    });
  }

  /** `GET /Library/SelectableMediaFolders`: libraries with their folders (SubFolders[].Path). */
  async listLibraries(): Promise<Library[]> {
    const action = "list the libraries";
    const answer = await this.http.call("GET", "/Library/SelectableMediaFolders", action);
    return this.http.readJson(answer, action, readSelectableFolders);
  }

  /** `POST /Library/Media/Updated`; Emby documents 200, some versions answer 204: any 2xx is success. */
  async mediaUpdated(updates: readonly MediaUpdate[]): Promise<void> {
    await this.http.call("POST", "/Library/Media/Updated", describeUpdates(updates), { json: mediaUpdatedBody(updates) });
  }
}
