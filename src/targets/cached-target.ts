import { TargetUnavailableError, type Contact, type Library, type Target } from "../domain.js";
import { systemClock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import { ContactRecorder } from "./contact.js";
import { LibraryCache, type LibraryCacheTuning } from "./library-cache.js";

/**
 * What every HTTP target shares: a name, a LibraryCache over the server's
 * library list (listLibraries() answers from it), and the outcome of the
 * last real exchange with the server (for /health and doctor).
 */
export abstract class CachedTarget implements Target {
  readonly name: string;
  abstract readonly scansPerLibrary: boolean;
  abstract readonly where: string;
  readonly confirms?: boolean;
  readonly libraries: LibraryCache;
  protected readonly logger: Logger | undefined;
  private readonly contactRecorder: ContactRecorder;

  constructor(name: string, tuning: LibraryCacheTuning, fetch: () => Promise<Library[]>, initial?: Library[]) {
    this.name = name;
    this.logger = tuning.logger;
    this.contactRecorder = new ContactRecorder(tuning.clock ?? systemClock);
    this.libraries = new LibraryCache({ ...tuning, name, fetch: () => this.recorded(fetch), initial });
  }

  /** What the last call to the server showed; "unknown" until one answered or failed. */
  contact(): Contact {
    return this.contactRecorder.current();
  }

  /** Runs a call to the server and remembers how it went. */
  protected async recorded<T>(call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      this.contactRecorder.succeeded();
      return result;
    } catch (error) {
      this.contactRecorder.failed(error);
      throw error;
    }
  }

  listLibraries(): Promise<Library[]> {
    return this.libraries.listLibraries();
  }

  abstract scan(folder: string, library: Library, files?: readonly string[]): Promise<void>;

  /** Runs a scan call; when the server turned out unavailable, its libraries are fetched again before the next use. */
  protected async refetchOnOutage<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await this.recorded(call);
    } catch (error) {
      if (error instanceof TargetUnavailableError) this.libraries.markStale();
      throw error;
    }
  }
}
