import type { FakeRequest } from "./loopback.js";
import type { FakeItems } from "./media-items.js";

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

/** Puts each library's starting items in `items` under the server's id of it (a path without an extension is a folder). */
export function addLibraryItems(items: FakeItems, libraries: readonly FakeLibrary[], idOf: (index: number) => string): void {
  for (const [index, library] of libraries.entries())
    for (const path of library.items ?? []) items.add(path, !/\.[a-z0-9]{2,4}$/i.test(path), idOf(index));
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

/** The id in `/items/{id}/refresh` (lower-cased path), or undefined for any other path. */
export function refreshedItemId(path: string, original: string): string | undefined {
  const match = /^\/items\/([^/]+)\/refresh$/.exec(path);
  if (!match) return undefined;
  // Ids are hex: the original spelling is the lower-cased one.
  return decodeURIComponent(/\/items\/([^/]+)\/refresh$/i.exec(original)?.[1] ?? match[1] ?? "");
}
