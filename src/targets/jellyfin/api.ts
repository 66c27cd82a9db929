import { isFields } from "../../http/client.js";
import { MediaBrowserClient, type MediaBrowserApiOptions } from "../media-browser/client.js";
import { readVirtualFolders } from "../media-browser/payloads.js";
import { parseServerUrl } from "../server-url.js";

export type JellyfinApiOptions = MediaBrowserApiOptions;

/** What the targeted-scans plugin said about one path. */
export type ScanPathResult =
  /** Created or Refreshed: the plugin queued the item's refresh. */
  | { kind: "accepted"; status: string }
  /** PathNotFound or ParentNotFound: the plugin cannot place the path; Media/Updated can. */
  | { kind: "not-placed"; status: string };

/**
 * The Jellyfin HTTP API, reduced to what a scan trigger needs (apis.md §4.1):
 * libraries from `GET /Library/VirtualFolders` (an API key or an admin: 403
 * otherwise), `POST /Library/Media/Updated` (204; Jellyfin looks after its
 * LibraryMonitorDelay, 60 s by default), and the targeted-scans plugin's
 * `POST /Library/ScanPath`. The token travels only in `Authorization:
 * MediaBrowser Token="…"`, the one form every version accepts (v12 turns the
 * legacy headers and `api_key` off).
 */
export class JellyfinApiClient extends MediaBrowserClient {
  constructor(options: JellyfinApiOptions) {
    super({
      kind: "Jellyfin",
      root: parseServerUrl(options.baseUrl, options.urlKey, options.tokenKey),
      headers: { Authorization: `MediaBrowser Token="${options.token}"` },
      token: options.token,
      tokenKey: options.tokenKey,
      librariesPath: "/Library/VirtualFolders",
      folderStatesPath: "/Library/VirtualFolders",
      readLibraries: readVirtualFolders,
      itemsQueryExtra: { EnableTotalRecordCount: "false" },
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    });
  }

  /**
   * Whether the targeted-scans plugin's `POST /Library/ScanPath` exists. An
   * empty Path is refused by the plugin with 400 ("Path is required") and
   * scans nothing; without the plugin the route is unknown and Jellyfin
   * answers 404 (405 behind some proxies). Other failures are thrown.
   */
  async hasScanPath(): Promise<boolean> {
    const answer = await this.http.call("POST", "/Library/ScanPath", "probe for the targeted-scans plugin", {
      json: { Path: "" },
      pass: [400, 404, 405],
    });
    return answer.status !== 404 && answer.status !== 405;
  }

  /** `POST /Library/ScanPath {"Path": …}` of the targeted-scans plugin: creates or refreshes the item at once. */
  async scanPath(path: string): Promise<ScanPathResult> {
    const action = `scan ${path} through the targeted-scans plugin`;
    const answer = await this.http.call("POST", "/Library/ScanPath", action, { json: { Path: path }, pass: [404] });
    const status = readStatus(answer.text);
    if (answer.status === 404) {
      // A bare 404 (no plugin status) means the route went away: the caller re-checks.
      if (status === "PathNotFound" || status === "ParentNotFound") return { kind: "not-placed", status };
      throw this.http.unavailable(`answered 404 without a plugin status when asked to ${action}`);
    }
    return { kind: "accepted", status: status ?? "accepted" };
  }
}

function readStatus(text: string): string | undefined {
  try {
    const data: unknown = JSON.parse(text);
    return isFields(data) && typeof data.Status === "string" ? data.Status : undefined;
  } catch {
    return undefined;
  }
}
