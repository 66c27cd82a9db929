import { TargetUnavailableError, type Library, type Target } from "../domain.js";
import type { Logger } from "../lib/logger.js";
import { LibraryCache, type LibraryCacheTuning } from "./library-cache.js";

/**
 * What every HTTP target shares: a name and a LibraryCache over the
 * server's library list; listLibraries() answers from it.
 */
export abstract class CachedTarget implements Target {
  readonly name: string;
  readonly libraries: LibraryCache;
  protected readonly logger: Logger | undefined;

  constructor(name: string, tuning: LibraryCacheTuning, fetch: () => Promise<Library[]>, initial?: Library[]) {
    this.name = name;
    this.logger = tuning.logger;
    this.libraries = new LibraryCache({ ...tuning, name, fetch, initial });
  }

  listLibraries(): Promise<Library[]> {
    return this.libraries.listLibraries();
  }

  abstract scan(folder: string, library: Library, files?: readonly string[]): Promise<void>;

  /** Runs a scan call; when the server turned out unavailable, its libraries are fetched again before the next use. */
  protected async refetchOnOutage<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof TargetUnavailableError) this.libraries.markStale();
      throw error;
    }
  }
}
