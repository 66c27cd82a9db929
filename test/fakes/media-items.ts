import type { ServerResponse } from "node:http";
import { isVideo } from "../../src/paths/sidecars.js";
import { sendJson, sendProblem, type FakeRequest } from "./loopback.js";
import { FakeScans, isUnder } from "./media-scans.js";

/** A library as the server's item ids name it (Jellyfin: its ItemId; Emby: its media folder's id). */
export interface ItemLibrary {
  id: string;
  /** "movies", "tvshows", ...; a movies library keeps no item for a movie's folder, as Jellyfin's does not. */
  collectionType?: string;
  locations: string[];
}

interface Item {
  id: string;
  folder: boolean;
}

/**
 * The items of a Jellyfin or Emby fake with their paths: files, and the
 * folders between a library's location and its files (a series' and a
 * season's folder; none for a movie's, which a movies library does not make
 * an item of). `GET /Items` pages through a library's items (ParentId,
 * Recursive, Filters IsFolder/IsNotFolder, IncludeItemTypes, StartIndex,
 * Limit; `Path` only with `Fields=Path`, as the real servers leave it out
 * otherwise), and `POST /Items/{id}/Refresh` is recorded and starts a scan
 * of the item (media-scans.ts; a library's own id: the whole library).
 */
export class FakeItems {
  /** Path → item, per library id, in the order they were added. */
  private readonly byLibrary = new Map<string, Map<string, Item>>();
  private next = 1;
  /** Accepted `POST /Items/{id}/Refresh` calls, in order, with their query and the item's path. */
  readonly refreshes: Array<{ id: string; query: string; path: string }> = [];
  /** Every `GET /Items` call's StartIndex, in order (not the Path look-ups), and its Filters. */
  readonly listings: number[] = [];
  readonly listingFilters: string[] = [];
  /** The `Path` of every `GET /Items?Path=…` the server filtered by, in order. */
  readonly pathLookups: string[] = [];
  /** True: `GET /Items` is read and never answered (a server stuck in its database). */
  hang = false;
  /** The scans: Media/Updated reports and item refreshes, on the fake's disk. */
  readonly scans: FakeScans;

  /** `pathFilter`: whether `GET /Items` takes `Path` (Emby's description has it; Jellyfin's has not, and ignores it). */
  constructor(
    private readonly pathFilter: boolean,
    private readonly libraries: () => readonly ItemLibrary[],
  ) {
    this.scans = new FakeScans({
      add: (path) => void this.add(path),
      paths: () => [...this.byLibrary.values()].flatMap((items) => [...items.keys()]),
      isFolder: (path) => this.itemAt(path)?.folder ?? false,
      remove: (path) => {
        for (const items of this.byLibrary.values()) items.delete(path);
      },
    });
  }

  /**
   * An item at `path` (and at the folders above it that the library makes
   * items of); returns its id. `libraryId`: the library to hold it, even
   * outside its locations (a server listing a stray item).
   */
  add(path: string, folder = false, libraryId?: string): string {
    const library = this.libraries().find((l) => l.id === libraryId) ?? this.libraryOf(path);
    const items = this.byLibrary.get(library.id) ?? new Map<string, Item>();
    this.byLibrary.set(library.id, items);
    const location = library.locations.find((l) => isUnder(path, l));
    const parent = path.slice(0, path.lastIndexOf("/"));
    if (location !== undefined && parent !== location && library.collectionType !== "movies") this.add(parent, true);
    const known = items.get(path);
    if (known) return known.id;
    const id = `${(this.next++).toString(16).padStart(32, "0")}`;
    items.set(path, { id, folder });
    return id;
  }

  /** The server drops the item at `path` and those under it (a folder deleted and made again gets a new id). */
  forget(path: string): void {
    for (const items of this.byLibrary.values())
      for (const known of [...items.keys()]) if (known === path || isUnder(known, path)) items.delete(known);
  }

  idOf(path: string): string | undefined {
    return this.itemAt(path)?.id;
  }

  private itemAt(path: string): Item | undefined {
    for (const items of this.byLibrary.values()) if (items.has(path)) return items.get(path);
    return undefined;
  }

  private libraryOf(path: string): ItemLibrary {
    const library = this.libraries().find((l) => l.locations.some((location) => isUnder(path, location)));
    if (!library) throw new Error(`fake server: ${path} is in no library`);
    return library;
  }

  answerList({ url }: FakeRequest, res: ServerResponse): void {
    // Both servers read query names in any case.
    const query = new Map([...url.searchParams].map(([k, v]) => [k.toLowerCase(), v]));
    const start = Number(query.get("startindex") ?? 0);
    const limit = Number(query.get("limit") ?? 100_000);
    this.scans.settle();
    const wanted = this.pathFilter ? query.get("path") : undefined;
    if (wanted === undefined) {
      this.listings.push(start);
      this.listingFilters.push(query.get("filters") ?? "");
    } else this.pathLookups.push(wanted);
    if (this.hang) return;
    const filters = (query.get("filters") ?? "").toLowerCase().split(",");
    const types = query.get("includeitemtypes")?.split(",");
    const listed = this.itemsUnder(query.get("parentid")).filter(
      ({ path, item, type }) =>
        (wanted === undefined || path === wanted) &&
        !(filters.includes("isfolder") && !item.folder) &&
        !(filters.includes("isnotfolder") && item.folder) &&
        (types === undefined || types.includes(type)),
    );
    // SortBy=DateCreated&SortOrder=Descending: the items added last come first.
    if (/datecreated/i.test(query.get("sortby") ?? "") && /^desc/i.test(query.get("sortorder") ?? "")) listed.reverse();
    const withPath = (query.get("fields") ?? "").split(",").some((f) => f.trim().toLowerCase() === "path");
    const page = listed.slice(start, start + limit).map(({ path, item, type }) => ({
      Id: item.id,
      Name: path.split("/").pop(),
      Type: type,
      IsFolder: item.folder,
      ...(withPath ? { Path: path } : {}),
    }));
    sendJson(res, 200, { Items: page, StartIndex: start });
  }

  /** The items under a library's id (or a folder item's), with the type the server would give each. */
  private itemsUnder(parent: string | undefined): Array<{ path: string; item: Item; type: string }> {
    return this.libraries().flatMap((library) => {
      const items = [...(this.byLibrary.get(library.id) ?? new Map<string, Item>())];
      const folder = parent === undefined || parent === library.id ? undefined : items.find(([, item]) => item.id === parent)?.[0];
      if (parent !== undefined && parent !== library.id && folder === undefined) return [];
      return items
        .filter(([path]) => folder === undefined || isUnder(path, folder))
        .map(([path, item]) => ({ path, item, type: typeOf(library, path, item) }));
    });
  }

  /** Answers `success` (200 for Emby, its description's "Operation successful. Empty response."; 204 for Jellyfin) and starts the item's scan. */
  answerRefresh({ url }: FakeRequest, res: ServerResponse, id: string, success: 200 | 204): void {
    const library = this.libraries().find((l) => l.id === id);
    const item = library ? undefined : [...this.byLibrary.values()].flatMap((items) => [...items]).find(([, i]) => i.id === id);
    if (!library && !item) return sendProblem(res, 404, "Item not found");
    const scope = library ? library.locations : [item?.[0] as string];
    this.refreshes.push({ id, query: url.search, path: scope.join(",") });
    this.scans.settle();
    this.scans.refresh(scope);
    sendJson(res, success);
  }
}

/** BaseItemDto.Type as the servers name it: a series' and a season's folder in a shows library, else a Folder; a file by its library. */
function typeOf(library: ItemLibrary, path: string, item: Item): string {
  if (item.folder) {
    if (library.collectionType !== "tvshows") return "Folder";
    const location = library.locations.find((l) => isUnder(path, l)) ?? "";
    return path.slice(location.length + 1).includes("/") ? "Season" : "Series";
  }
  if (!isVideo(path)) return library.collectionType === "music" ? "Audio" : "Video";
  return library.collectionType === "tvshows" ? "Episode" : library.collectionType === "movies" ? "Movie" : "Video";
}
