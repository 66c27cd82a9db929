import type { Library } from "../../domain.js";
import { CachedTarget } from "../cached-target.js";
import { CATCH_ALL_LIBRARY } from "../catch-all.js";
import { keyClientOptionsOf, type TargetFactory } from "../factory.js";
import type { LibraryCacheTuning } from "../library-cache.js";
import { TdarrApiClient } from "./api.js";
import type { TdarrEntry } from "./config.js";

export type TdarrApi = Pick<TdarrApiClient, "where" | "status" | "scanFiles">;

export interface TdarrTargetOptions extends LibraryCacheTuning {
  name: string;
  api: TdarrApi;
  /** The Tdarr library (its id) the paths are scanned into. */
  libraryId: string;
}

/**
 * Tells Tdarr to look at new files now instead of at its next watcher round.
 * Tdarr's library decides which files it takes, so every folder is accepted
 * here (the catch-all library, known before any call; listing it checks
 * Tdarr's status, cached like any library list); a scan sends the files the
 * request named, or the folder when it named none.
 */
export class TdarrTarget extends CachedTarget {
  readonly scansPerLibrary = false;
  readonly where: string;
  private readonly api: TdarrApi;
  private readonly libraryId: string;

  constructor(options: TdarrTargetOptions) {
    const { name, api, libraryId, ...tuning } = options;
    // Listing the one library asks Tdarr for its status, so /health tells whether Tdarr answers.
    const check = async (): Promise<Library[]> => {
      await api.status();
      return [CATCH_ALL_LIBRARY];
    };
    super(name, tuning, check, [CATCH_ALL_LIBRARY]);
    this.api = api;
    this.libraryId = libraryId;
    this.where = api.where;
  }

  async scan(folder: string, _library: Library, files: readonly string[] = []): Promise<void> {
    const paths = files.length > 0 ? files : [folder];
    await this.recorded(() => this.api.scanFiles(this.libraryId, paths));
    this.logger?.debug({ target: this.name, folder, paths: paths.length }, "Tdarr asked to scan");
  }

  /** For doctor: Tdarr answers and takes the API key. */
  async checkAccess(): Promise<string> {
    const version = await this.recorded(() => this.api.status());
    return `Tdarr ${version} answers`;
  }
}

/** A TARGETS entry of TYPE "tdarr": URL, LIBRARY_ID, and TOKEN when Tdarr's authentication is on. */
export const createTdarrTarget: TargetFactory = (entry, deps) =>
  new TdarrTarget({
    name: entry.entry.NAME,
    api: new TdarrApiClient(keyClientOptionsOf(entry, deps)),
    libraryId: (entry.entry as TdarrEntry).LIBRARY_ID ?? "",
    clock: deps.clock,
    logger: deps.logger,
  });
