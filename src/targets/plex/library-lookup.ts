import type { PlexApiClient } from "./api.js";
import type { FolderListing } from "./folder-listing.js";
import { openPlexItemsDb, type PlexItemRef, type PlexItemsDb } from "./library-items-db.js";
import { locateThroughFolders, type SectionFolders } from "./locate-api.js";
import { messageOf } from "../../lib/errors.js";
import { sidecarOf } from "../../paths/sidecars.js";
import { folderRangeOf, matchInFolder } from "./sidecar-items.js";

/** Files to find in one section. */
export interface LocateRequest {
  section: SectionFolders;
  files: readonly string[];
}

/** Where an answer came from, so logs can say it (and why not the database). */
export interface LookupSource {
  source: "database" | "api";
  /** Why the database was not used, when PLEX_DATABASE_PATH is set but could not be read. */
  databaseProblem?: string;
}

export interface LocateResult extends LookupSource {
  /** Per request (same order): the live items of its files, by file. */
  found: Array<Map<string, PlexItemRef>>;
}

export interface TrashCount extends LookupSource {
  count: number;
}

/** Answers "which item holds this file" and "how full is the trash", from the database or the API. */
export interface PlexLookup {
  /** `walk`: folder-view listings kept between calls, for the folders above the files' own (locate-api.ts). */
  locate(requests: readonly LocateRequest[], walk?: Map<string, Promise<FolderListing>>): Promise<LocateResult>;
  countTrash(section: { id: string; type: string }): Promise<TrashCount>;
}

export interface PlexLookupOptions {
  /** PLEX_DATABASE_PATH; empty to always use the API. */
  databasePath: string;
  api: Pick<PlexApiClient, "listFolder" | "countTrash">;
  openDb?: (file: string) => PlexItemsDb;
}

/**
 * The Plex database when PLEX_DATABASE_PATH can be opened (no HTTP call, one
 * indexed query per file, one index range per sidecar's folder), otherwise
 * Plex's API (one folder listing per folder, shared by the call). The database is opened for
 * each call and closed after it, so a Plex restart or repair that replaces
 * the file is never read through a stale handle.
 */
export function createPlexLookup(options: PlexLookupOptions): PlexLookup {
  const openDb = options.openDb ?? openPlexItemsDb;

  function withDb<T>(use: (db: PlexItemsDb) => T): { value: T } | { problem?: string } {
    if (options.databasePath === "") return {};
    let db: PlexItemsDb;
    try {
      db = openDb(options.databasePath);
    } catch (error) {
      return { problem: messageOf(error) };
    }
    try {
      return { value: use(db) };
    } catch (error) {
      // A locked or half-written database: the API still knows the answer.
      return { problem: messageOf(error) };
    } finally {
      db.close();
    }
  }

  return {
    async locate(requests, walk) {
      const fromDb = withDb((db) => requests.map((r) => findInDb(db, r)));
      if ("value" in fromDb) return { source: "database", found: fromDb.value };
      const cache = walk ?? new Map<string, Promise<FolderListing>>();
      const found: Array<Map<string, PlexItemRef>> = [];
      for (const request of requests) found.push(await locateThroughFolders(options.api, request.section, request.files, cache));
      return { source: "api", found, ...problemOf(fromDb) };
    },
    async countTrash(section) {
      const fromDb = withDb((db) => db.countDeleted(section.id));
      if ("value" in fromDb) return { source: "database", count: fromDb.value };
      return { source: "api", count: await options.api.countTrash(section.id, section.type), ...problemOf(fromDb) };
    },
  };
}

/** Files by their own path (one indexed query each); sidecars through one range query per folder. */
function findInDb(db: PlexItemsDb, request: LocateRequest): Map<string, PlexItemRef> {
  const sidecars = request.files.filter((f) => sidecarOf(f) !== undefined);
  const found = db.findFiles(request.section.id, sidecars.length === 0 ? request.files : request.files.filter((f) => !sidecarOf(f)));
  const byFolder = new Map<string, { from: string; to: string; files: string[] }>();
  for (const file of sidecars) {
    const range = folderRangeOf(file);
    const group = byFolder.get(range.folder) ?? { ...range, files: [] };
    group.files.push(file);
    byFolder.set(range.folder, group);
  }
  for (const group of byFolder.values()) matchInFolder(group.files, db.findInRange(request.section.id, group.from, group.to), found);
  return found;
}

function problemOf(result: { problem?: string }): { databaseProblem?: string } {
  return result.problem === undefined ? {} : { databaseProblem: result.problem };
}
