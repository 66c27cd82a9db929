import type { FakeRequest } from "./loopback.js";

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

/**
 * `GET /Items?ParentId=<library id>&Recursive=true&Fields=Path`: the items
 * under a library, each with its `Path` when `Fields` asks for it (both
 * servers leave Path out otherwise); paging by StartIndex and Limit.
 */
export function renderItems(
  url: URL,
  libraries: readonly FakeLibrary[],
  idOf: (library: FakeLibrary, index: number) => string = (library) => library.id,
): { status: number; body: unknown } {
  const query = new Map([...url.searchParams].map(([k, v]) => [k.toLowerCase(), v]));
  const parent = query.get("parentid");
  const library = libraries.find((l, i) => idOf(l, i) === parent);
  if (parent !== undefined && !library) return { status: 400, body: { title: "Bad Request", status: 400 } };
  const all = (library ? [library] : libraries).flatMap((l) => (l.items ?? []).map((path, i) => ({ path, id: `${l.id}-${i}` })));
  const withPath = (query.get("fields") ?? "").split(",").some((f) => f.trim().toLowerCase() === "path");
  const start = Number(query.get("startindex") ?? 0);
  const limit = Number(query.get("limit") ?? all.length);
  const page = all
    .slice(start, start + limit)
    .map((item) => ({ Name: item.path.split("/").pop(), Id: item.id, ...(withPath ? { Path: item.path } : {}) }));
  return { status: 200, body: { Items: page, TotalRecordCount: all.length, StartIndex: start } };
}
