import { isFields } from "../targets/http-client.js";
import { appHttp, type ArrApp, type ArrCallOptions } from "./client.js";
import { ARR_KIND_INFO } from "./kinds.js";

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
  const info = ARR_KIND_INFO[app.kind];
  const rootAction = "list its root folders (rootfolder)";
  const rootFolders = http.readJson(await http.call("GET", "/rootfolder", rootAction), rootAction, readPaths);
  const itemsAction = `list its ${info.itemsNoun} (${info.itemsPath.slice(1)})`;
  const items = http.readJson(await http.call("GET", info.itemsPath, itemsAction), itemsAction, readPaths);
  return { rootFolders, itemPaths: spreadSample(items, options.sample ?? DEFAULT_ITEM_SAMPLE), itemCount: items.length };
}

function readPaths(data: unknown): string[] {
  if (!Array.isArray(data)) throw new Error("expected a JSON array");
  return data.flatMap((entry) => (isFields(entry) && typeof entry.path === "string" && entry.path !== "" ? [entry.path] : []));
}

/** At most `size` entries, evenly spaced, in their order. */
export function spreadSample<T>(list: readonly T[], size: number): T[] {
  if (list.length <= size) return [...list];
  if (size <= 0) return [];
  const step = list.length / size;
  return Array.from({ length: size }, (_, i) => list[Math.floor(i * step)] as T);
}
