import { MediaBrowserClient, type MediaBrowserApiOptions } from "../media-browser/client.js";
import { itemByPathQuery } from "../media-browser/items.js";
import { readSelectableFolders } from "../media-browser/payloads.js";
import { parseServerUrl } from "../server-url.js";

export type EmbyApiOptions = MediaBrowserApiOptions;

/**
 * The Emby HTTP API, reduced to what a scan trigger needs (apis.md §4.2):
 * libraries from `GET /Library/SelectableMediaFolders` (SubFolders[].Path)
 * and `POST /Library/Media/Updated` (the spec says 200, some versions answer
 * 204). Every call goes under `/emby`, the spec's server base; a URL that
 * already ends in `/emby` is not given a second one. The key travels only in
 * the `X-Emby-Token` header, never as `api_key` in a URL.
 */
export class EmbyApiClient extends MediaBrowserClient {
  constructor(options: EmbyApiOptions) {
    const base = parseServerUrl(options.baseUrl, options.urlKey, options.tokenKey);
    super({
      kind: "Emby",
      root: /\/emby$/i.test(base) ? base : `${base}/emby`,
      headers: { "X-Emby-Token": options.token },
      token: options.token,
      tokenKey: options.tokenKey,
      librariesPath: "/Library/SelectableMediaFolders",
      folderStatesPath: "/Library/VirtualFolders/Query",
      readLibraries: readSelectableFolders,
      refreshQueryExtra: { Recursive: "true" },
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    });
  }

  /** `GET /Items?Path=…` (Emby's description names the filter): the item at exactly `path`, if Emby holds one. */
  async findItemByPath(parentId: string, path: string): Promise<string | undefined> {
    const page = await this.itemPage(itemByPathQuery(parentId, path), `find the item at ${path}`);
    // A server that ignored the filter would list other items: only the exact path counts.
    return page.items.find((item) => item.path === path)?.id;
  }
}
