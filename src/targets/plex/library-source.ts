import { UserError, type Library } from "../../domain.js";
import type { Config } from "../../config/types.js";
import { PlexApiClient } from "./api.js";
import { openPlexLibraryDb } from "./library-db.js";
import { messageOf } from "../../lib/errors.js";

export interface LoadedLibraries {
  libraries: Library[];
  /** Where they came from, to say so in messages. */
  from: "database" | "api";
}

export interface LibrarySourceDeps {
  openDb?: typeof openPlexLibraryDb;
  listFromApi?: () => Promise<Library[]>;
}

/**
 * The libraries with their folders: from the read-only Plex database when
 * PLEX_DATABASE_PATH can be opened (no token, no running server needed),
 * otherwise from the Plex API. When both fail, the error names both causes.
 */
export async function loadLibraries(
  config: Pick<Config, "PLEX_DATABASE_PATH" | "PLEX_LOCAL_URL" | "PLEX_TOKEN">,
  deps: LibrarySourceDeps = {},
): Promise<LoadedLibraries> {
  const openDb = deps.openDb ?? openPlexLibraryDb;
  let dbProblem = "PLEX_DATABASE_PATH is empty";
  if (config.PLEX_DATABASE_PATH !== "") {
    try {
      const db = openDb(config.PLEX_DATABASE_PATH);
      try {
        return { libraries: db.listLibraries(), from: "database" };
      } finally {
        db.close();
      }
    } catch (error) {
      dbProblem = messageOf(error);
    }
  }
  if (config.PLEX_LOCAL_URL === "") throw new UserError(`cannot list the Plex libraries: ${dbProblem}, and PLEX_LOCAL_URL is empty`);
  const listFromApi =
    deps.listFromApi ?? (() => new PlexApiClient({ baseUrl: config.PLEX_LOCAL_URL, token: config.PLEX_TOKEN }).listLibraries());
  try {
    return { libraries: await listFromApi(), from: "api" };
  } catch (error) {
    const apiProblem = messageOf(error);
    throw new UserError(`cannot list the Plex libraries: ${dbProblem}; and from the API: ${apiProblem}`);
  }
}
