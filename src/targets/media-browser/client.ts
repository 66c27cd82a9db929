import { TargetAuthError, type Library, type LibraryScanState } from "../../domain.js";
import { HttpClient } from "../../http/client.js";
import { libraryStatesOf, readFolderRefreshes, readLibraryScanRunning } from "./scan-state.js";
import { describeUpdates, mediaUpdatedBody, type MediaUpdate } from "./payloads.js";
import { itemsQuery, readItemPage, refreshQuery, type ItemApi, type ItemPage } from "./items.js";

/** How a Jellyfin or Emby client is set up from a TARGETS entry. */
export interface MediaBrowserApiOptions {
  /** The server's address as scanarr reaches it (a reverse-proxy sub-path is kept). */
  baseUrl: string;
  /** An API key from the server's dashboard. */
  token: string;
  /** Config keys of the URL and the token, for messages. */
  urlKey: string;
  tokenKey: string;
  /** Per request; 30 s by default. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** What the Jellyfin and Emby clients tell their common part. */
export interface MediaBrowserSettings {
  kind: "Jellyfin" | "Emby";
  /** Base URL the API paths are appended to, without a trailing slash. */
  root: string;
  /** The credential's headers; the token itself is listed for redaction. */
  headers: Record<string, string>;
  token: string;
  /** The config key holding the token, for messages. */
  tokenKey: string;
  /** Where the library list is read, and how its JSON becomes libraries. */
  librariesPath: string;
  readLibraries: (data: unknown) => Library[];
  /** Where the virtual folders with their refresh state are read (Jellyfin: the library list itself). */
  folderStatesPath: string;
  /** Query parameters of `GET /Items` this server has beyond the common ones. */
  itemsQueryExtra?: Readonly<Record<string, string>>;
  /** Query parameters of `POST /Items/{id}/Refresh` this server has beyond the common ones. */
  refreshQueryExtra?: Readonly<Record<string, string>>;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * The calls Jellyfin and Emby share since Jellyfin forked Emby 3.x: a
 * library list and `POST /Library/Media/Updated`. Each server's client
 * supplies its base path, its auth header and its library endpoint.
 */
export class MediaBrowserClient implements ItemApi {
  readonly where: string;
  protected readonly http: HttpClient;
  private readonly settings: MediaBrowserSettings;

  constructor(settings: MediaBrowserSettings) {
    this.settings = settings;
    this.where = settings.root;
    this.http = new HttpClient({
      label: { kind: settings.kind, where: settings.root, credential: settings.tokenKey },
      root: settings.root,
      headers: settings.headers,
      secrets: [settings.token],
      timeoutMs: settings.timeoutMs,
      fetch: settings.fetch,
    });
  }

  /** The libraries with their folders. */
  async listLibraries(): Promise<Library[]> {
    const action = "list the libraries";
    const answer = await this.http.call("GET", this.settings.librariesPath, action);
    return this.http.readJson(answer, action, this.settings.readLibraries);
  }

  /**
   * Paths of the items under a library (`GET /Items?ParentId=…&Fields=Path`,
   * at most `limit`): a series' folder, a movie's file. For set-up, which
   * matches them with the *arr apps' folders.
   */
  async listItemPaths(library: Library, limit: number): Promise<string[]> {
    const page = await this.listItems(library.id, 0, limit, ["Series", "Movie", "MusicArtist", "MusicAlbum", "Audio", "Book"]);
    return page.items.map((item) => item.path);
  }

  /**
   * An empty `POST /Library/Media/Updated`: the very call a scan makes, with
   * no path to look at, so the server checks the key's rights and changes
   * nothing. For doctor (Target.checkAccess).
   */
  async checkScanAccess(): Promise<void> {
    await this.http.call("POST", "/Library/Media/Updated", "take a scan report (an empty one, to check the key)", {
      json: mediaUpdatedBody([]),
    });
  }

  /**
   * The libraries with whether each is scanning (scan-state.ts): the
   * library scan task, then the virtual folders' refresh state (on Jellyfin
   * the same answer as the library list, so one call serves both).
   */
  async listLibraryStates(): Promise<LibraryScanState[]> {
    const running = await this.libraryScanRunning();
    const action = "read the libraries' refresh state";
    const { folderStatesPath, librariesPath, readLibraries } = this.settings;
    const data = this.http.readJson(await this.http.call("GET", folderStatesPath, action), action, (json) => json);
    const folders = this.http.parsed(() => readFolderRefreshes(data), action);
    const libraries = folderStatesPath === librariesPath ? this.http.parsed(() => readLibraries(data), action) : await this.listLibraries();
    return libraryStatesOf(libraries, folders, running);
  }

  /** Whether the "Scan Media Library" task runs; a key refused the task list (an admin's) leaves the folders' own state to tell. */
  private async libraryScanRunning(): Promise<boolean> {
    const action = "list the scheduled tasks";
    try {
      return this.http.readJson(await this.http.call("GET", "/ScheduledTasks", action), action, readLibraryScanRunning);
    } catch (error) {
      if (error instanceof TargetAuthError) return false;
      throw error;
    }
  }

  /** One page of a library's files, the most recently added first: a scan's new files are on the first page. */
  listRecentItems(parentId: string, start: number, limit: number): Promise<ItemPage> {
    const extra = { SortBy: "DateCreated", SortOrder: "Descending" };
    return this.itemPage(
      itemsQuery(parentId, start, limit, undefined, { ...this.settings.itemsQueryExtra, ...extra }),
      `list the newest items of library ${parentId}`,
    );
  }

  /** One page of a library's items with their paths (items.ts). */
  listItems(parentId: string, start: number, limit: number, types?: readonly string[]): Promise<ItemPage> {
    return this.itemPage(itemsQuery(parentId, start, limit, types, this.settings.itemsQueryExtra), `list the items of library ${parentId}`);
  }

  /** One page of a library's folder items with their paths (`Filters=IsFolder`): where a scan's folder refresh looks on Jellyfin. */
  listFolderItems(parentId: string, start: number, limit: number): Promise<ItemPage> {
    return this.itemPage(
      itemsQuery(parentId, start, limit, "folders", this.settings.itemsQueryExtra),
      `list the folders of library ${parentId}`,
    );
  }

  /** One page of items: `GET` of an `/Items?…` query (items.ts), read as items with paths. */
  protected async itemPage(query: string, action: string): Promise<ItemPage> {
    return this.http.readJson(await this.http.call("GET", query, action), action, readItemPage);
  }

  /** `POST /Items/{id}/Refresh`; 204 on success. */
  async refreshItem(id: string): Promise<void> {
    await this.http.call("POST", refreshQuery(id, this.settings.refreshQueryExtra), `refresh item ${id}`);
  }

  /**
   * `POST /Items/{id}/Refresh` of a folder item, a scan's: the server
   * validates the folder's children at once, without its LibraryMonitorDelay.
   * False when the server no longer knows the item (404).
   */
  async refreshFolder(id: string, path: string): Promise<boolean> {
    const answer = await this.http.call("POST", refreshQuery(id, this.settings.refreshQueryExtra), `refresh the folder ${path}`, {
      pass: [404],
    });
    return answer.status !== 404;
  }

  /** `POST /Library/Media/Updated`: the server looks at each path again. Any 2xx is success. */
  async mediaUpdated(updates: readonly MediaUpdate[]): Promise<void> {
    await this.http.call("POST", "/Library/Media/Updated", describeUpdates(updates), { json: mediaUpdatedBody(updates) });
  }
}
