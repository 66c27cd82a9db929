import { isFields, type HttpClient } from "../http/client.js";
import { appHttp, type ArrApp, type ArrCallOptions } from "./client.js";
import { ARR_KIND_INFO, type ArrKind } from "./kinds.js";

/** How many item folders readArrLibrary hands back at most, by default. */
export const DEFAULT_ITEM_SAMPLE = 1_000;

export interface ArrLibrary {
  /** The app's root folders (`rootfolder`), as the app sees them. */
  rootFolders: string[];
  /** Item folders (a series', movie's, artist's or author's `path`), at most `sample`, spread over the whole list. */
  itemPaths: string[];
  /** How many items the app has in all. */
  itemCount: number;
}

export interface ReadLibraryOptions extends ArrCallOptions {
  /** At most this many item paths (default 1,000). */
  sample?: number;
}

/**
 * The app's root folders and its items' folders: `GET …/rootfolder` and
 * `GET /api/v3/series`, `/api/v3/movie`, `/api/v1/artist` or
 * `/api/v1/author`. The sample is taken evenly across the list, so every
 * root folder is represented in proportion.
 */
export async function readArrLibrary(app: ArrApp, options: ReadLibraryOptions = {}): Promise<ArrLibrary> {
  const http = appHttp(app, options);
  const rootFolders = await listRootFolders(http, pathOf);
  const items = await listItems(http, app.kind, pathOf);
  return { rootFolders, itemPaths: spreadSample(items, options.sample ?? DEFAULT_ITEM_SAMPLE), itemCount: items.length };
}

/**
 * What reads one entry of a list: `[value]` to keep it, `[]` to pass over it,
 * a throw for an entry that makes the whole answer unreadable (worth a retry).
 */
export type EntryReader<T> = (entry: unknown) => T[];

/** `GET rootfolder`, each entry read by `read`. */
export function listRootFolders<T>(http: HttpClient, read: EntryReader<T>): Promise<T[]> {
  return listOf(http, "/rootfolder", "list its root folders (rootfolder)", "root folder", read);
}

/** `GET /api/v3/series`, `/api/v3/movie`, `/api/v1/artist` or `/api/v1/author`, each entry read by `read`. */
export function listItems<T>(http: HttpClient, kind: ArrKind, read: EntryReader<T>): Promise<T[]> {
  const info = ARR_KIND_INFO[kind];
  return listOf(http, info.itemsPath, `list its ${info.itemsNoun} (${info.itemsPath.slice(1)})`, info.itemNoun, read);
}

async function listOf<T>(http: HttpClient, path: string, action: string, noun: string, read: EntryReader<T>): Promise<T[]> {
  const answer = await http.call("GET", path, action);
  return http.readJson(answer, action, (data) => {
    if (!Array.isArray(data)) throw new Error(`the ${noun} list is not a JSON array`);
    return data.flatMap(read);
  });
}

/** Set-up samples folders: an entry without one is passed over. */
function pathOf(entry: unknown): string[] {
  return isFields(entry) && typeof entry.path === "string" && entry.path !== "" ? [entry.path] : [];
}

/** At most `size` entries, evenly spaced, in their order. */
export function spreadSample<T>(list: readonly T[], size: number): T[] {
  if (list.length <= size) return [...list];
  if (size <= 0) return [];
  const step = list.length / size;
  return Array.from({ length: size }, (_, i) => list[Math.floor(i * step)] as T);
}
