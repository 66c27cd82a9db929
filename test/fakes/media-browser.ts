import type { ServerResponse } from "node:http";
import { sendJson, sendProblem, type FakeRequest } from "./loopback.js";

/** A library as the Jellyfin and Emby fakes serve it. */
export interface FakeLibrary {
  name: string;
  id: string;
  /** "movies", "tvshows", ...; left out for a mixed library, as Jellyfin does. */
  collectionType?: string;
  locations: string[];
  /** Items' paths (a series' folder, a movie's file), listed by `GET /Items?ParentId=<id>`. */
  items?: string[];
}

/** One entry of a `POST /Library/Media/Updated` body as the server read it. */
export interface RecordedUpdate {
  path: string;
  updateType: string;
}

export type MediaUpdatedRead = { updates: RecordedUpdate[] } | { status: number; title: string };

/**
 * Reads a `/Library/Media/Updated` body the way ASP.NET Core binds it: JSON
 * content only (415 otherwise), property names case-insensitive, `Updates`
 * required, and every entry with a Path (a null Path makes the server throw).
 */
export function readMediaUpdated({ req, body }: FakeRequest): MediaUpdatedRead {
  if (!/^(application\/(.+\+)?json|text\/json)\b/i.test(req.headers["content-type"] ?? "")) {
    return { status: 415, title: "Unsupported Media Type" };
  }
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return { status: 400, title: "The request body is not valid JSON." };
  }
  const list = field(data, "Updates");
  if (!Array.isArray(list)) return { status: 400, title: "The Updates field is required." };
  const updates: RecordedUpdate[] = [];
  for (const entry of list) {
    const path = field(entry, "Path");
    if (typeof path !== "string" || path === "") return { status: 400, title: "Value cannot be null. (Parameter 'path')" };
    const type = field(entry, "UpdateType");
    updates.push({ path, updateType: typeof type === "string" ? type : "" });
  }
  return { updates };
}

/** A property of a JSON object by case-insensitive name, as System.Text.Json's web defaults read it. */
export function field(data: unknown, name: string): unknown {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  const key = Object.keys(data).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : (data as Record<string, unknown>)[key];
}

/** Libraries the Jellyfin and Emby fakes start with: Plex's fixture folders as a container mounting /media sees them. */
export const DEFAULT_MEDIA_LIBRARIES: FakeLibrary[] = [
  { name: "Movies", id: "f137a2dd21bbc1b99aa5c0f6bf02a805", collectionType: "movies", locations: ["/media/Movies"] },
  { name: "Shows", id: "a656b907eb3a73532e40e44b968d0225", collectionType: "tvshows", locations: ["/media/TV-Shows"] },
  { name: "Music", id: "7e64e319657a9516ec78490da03edccb", collectionType: "music", locations: ["/media/Music"] },
];

/** How long the server takes to look at a Media/Updated path: `ms` on `now`'s clock, after the paths before it. */
export interface FakeScanTiming {
  ms: number;
  now: () => number;
  /**
   * The server's LibraryMonitorDelay: a reported path waits this long after the
   * last report of its tree (a path that holds it or that it holds) before its
   * walk starts (Jellyfin's and Emby's default: 60 s, one refresher per tree;
   * apis.md). The paths waiting in a tree then go together. 0 or unset: at once.
   */
  monitorDelayMs?: number;
}

/**
 * The items of a Jellyfin or Emby fake with their paths: `GET /Items` pages
 * through a library's items (ParentId, Recursive, StartIndex, Limit; `Path`
 * only with `Fields=Path`, as the real servers leave it out otherwise), and
 * `POST /Items/{id}/Refresh` is recorded (404 for an unknown id).
 */
export class FakeItems {
  /** Path → item id, per library id. */
  private readonly byLibrary = new Map<string, Map<string, string>>();
  private next = 1;
  /** Ids of accepted `POST /Items/{id}/Refresh` calls, in order, with their query. */
  readonly refreshes: Array<{ id: string; query: string }> = [];
  /** Every `GET /Items` call's StartIndex, in order (not the Path look-ups). */
  readonly listings: number[] = [];
  /** The `Path` of every `GET /Items?Path=…` the server filtered by, in order. */
  readonly pathLookups: string[] = [];
  /** True: `GET /Items` is read and never answered (a server stuck in its database). */
  hang = false;

  /** Files on "disk": what a timed scan of a Media/Updated path finds (see `scanTiming`). */
  readonly disk = new Set<string>();
  /** Unset: a Media/Updated changes no item. Set: each path is scanned after a time, its files on disk become items and its items gone from disk go. */
  scanTiming: FakeScanTiming | undefined;
  private readonly scans: Array<{ path: string; until: number; libraryOf: (path: string) => string }> = [];
  /** Per tree, the paths reported and waiting out the LibraryMonitorDelay, and when the last came. */
  private monitored: Array<{ paths: Array<{ path: string; libraryOf: (path: string) => string }>; lastAt: number }> = [];

  /** `pathFilter`: whether `GET /Items` takes `Path` (Emby's description has it; Jellyfin's has not, and ignores it). */
  constructor(private readonly pathFilter: boolean) {}

  /** A Media/Updated `path` (a file or a folder) to scan, when scans are timed; `libraryOf` names the library of a file found. */
  startScan(path: string, libraryOf: (path: string) => string): void {
    if (!this.scanTiming) return;
    if (this.scanTiming.monitorDelayMs) {
      const related = (a: string, b: string) =>
        a === b || a.startsWith(`${b.replace(/\/+$/, "")}/`) || b.startsWith(`${a.replace(/\/+$/, "")}/`);
      let tree = this.monitored.find((t) => t.paths.some((p) => related(p.path, path)));
      if (!tree) {
        tree = { paths: [], lastAt: 0 };
        this.monitored.push(tree);
      }
      tree.paths.push({ path, libraryOf });
      tree.lastAt = this.scanTiming.now();
      return;
    }
    const start = Math.max(this.scanTiming.now(), this.scans.at(-1)?.until ?? 0);
    this.scans.push({ path, until: start + this.scanTiming.ms, libraryOf });
  }

  /** A tree whose LibraryMonitorDelay has passed becomes one walk, as long as one scan. */
  private startMonitored(): void {
    const timing = this.scanTiming;
    if (!timing) return;
    const delay = timing.monitorDelayMs ?? 0;
    const ready = this.monitored.filter((t) => timing.now() >= t.lastAt + delay).sort((a, b) => a.lastAt - b.lastAt);
    this.monitored = this.monitored.filter((t) => !ready.includes(t));
    for (const tree of ready) {
      const start = Math.max(tree.lastAt + delay, this.scans.at(-1)?.until ?? 0);
      for (const p of tree.paths) this.scans.push({ path: p.path, until: start + timing.ms, libraryOf: p.libraryOf });
    }
  }

  /** Ends the timed scans whose time has come. */
  private settle(): void {
    this.startMonitored();
    const now = this.scanTiming?.now() ?? 0;
    for (let scan = this.scans[0]; scan !== undefined && scan.until <= now; scan = this.scans[0]) {
      this.scans.shift();
      const under = (file: string) => file === scan.path || file.startsWith(`${scan.path.replace(/\/+$/, "")}/`);
      for (const file of this.disk) if (under(file)) this.add(scan.libraryOf(file), file);
      for (const items of this.byLibrary.values())
        for (const file of items.keys()) if (under(file) && !this.disk.has(file)) items.delete(file);
    }
  }

  add(libraryId: string, path: string): string {
    const items = this.byLibrary.get(libraryId) ?? new Map<string, string>();
    this.byLibrary.set(libraryId, items);
    const known = items.get(path);
    if (known) return known;
    const id = `${(this.next++).toString(16).padStart(32, "0")}`;
    items.set(path, id);
    return id;
  }

  idOf(path: string): string | undefined {
    for (const items of this.byLibrary.values()) if (items.has(path)) return items.get(path);
    return undefined;
  }

  answerList({ url }: FakeRequest, res: ServerResponse): void {
    // Both servers read query names in any case.
    const query = new Map([...url.searchParams].map(([k, v]) => [k.toLowerCase(), v]));
    const parent = query.get("parentid");
    const start = Number(query.get("startindex") ?? 0);
    const limit = Number(query.get("limit") ?? 100_000);
    this.settle();
    const wanted = this.pathFilter ? query.get("path") : undefined;
    if (wanted === undefined) this.listings.push(start);
    else this.pathLookups.push(wanted);
    if (this.hang) return;
    // SortBy=DateCreated&SortOrder=Descending: the items added last come first.
    const newest = /datecreated/i.test(query.get("sortby") ?? "") && /^desc/i.test(query.get("sortorder") ?? "");
    const withPath = (query.get("fields") ?? "").split(",").some((f) => f.trim().toLowerCase() === "path");
    const libraries = parent === undefined ? [...this.byLibrary.values()] : [this.byLibrary.get(parent) ?? new Map<string, string>()];
    const items = libraries.flatMap((library) => [...library]).filter(([path]) => wanted === undefined || path === wanted);
    if (newest) items.reverse();
    const page = items
      .slice(start, start + limit)
      .map(([path, id]) => ({ Id: id, Name: path.split("/").pop(), Type: "Movie", ...(withPath ? { Path: path } : {}) }));
    sendJson(res, 200, { Items: page, StartIndex: start });
  }

  /** Answers `success`: 200 for Emby (its description's "Operation successful. Empty response."), 204 for Jellyfin. */
  answerRefresh({ url }: FakeRequest, res: ServerResponse, id: string, success: 200 | 204): void {
    const known = [...this.byLibrary.values()].some((items) => [...items.values()].includes(id));
    if (!known) return sendProblem(res, 404, "Item not found");
    this.refreshes.push({ id, query: url.search });
    sendJson(res, success);
  }
}

/** The index of the library holding `path` (by whole components), for the fakes' addItem. */
export function libraryIndexOf(libraries: readonly FakeLibrary[], path: string): number {
  const index = libraries.findIndex((l) => l.locations.some((loc) => path.startsWith(`${loc.replace(/\/+$/, "")}/`)));
  if (index < 0) throw new Error(`fake server: ${path} is in no library`);
  return index;
}

/** The id in `/items/{id}/refresh` (lower-cased path), or undefined for any other path. */
export function refreshedItemId(path: string, original: string): string | undefined {
  const match = /^\/items\/([^/]+)\/refresh$/.exec(path);
  if (!match) return undefined;
  // Ids are hex: the original spelling is the lower-cased one.
  return decodeURIComponent(/\/items\/([^/]+)\/refresh$/i.exec(original)?.[1] ?? match[1] ?? "");
}
