import { TargetUnavailableError, type Library, type Target } from "../../domain.js";
import type { Logger } from "../../lib/logger.js";
import { LibraryCache, type LibraryCacheTuning } from "../library-cache.js";
import type { EmbyApiClient } from "./api.js";

export type EmbyApi = Pick<EmbyApiClient, "listLibraries" | "mediaUpdated">;

export interface EmbyTargetOptions extends LibraryCacheTuning {
  name: string;
  api: EmbyApi;
}

/**
 * Emby. A scan reports the request's files when it named some, else the
 * folder, in one `POST /Library/Media/Updated` with UpdateType "Created"
 * (what autoscan sends Emby; Emby then looks at whatever changed there).
 */
export class EmbyTarget implements Target {
  readonly name: string;
  readonly libraries: LibraryCache;
  private readonly api: EmbyApi;
  private readonly logger: Logger | undefined;

  constructor(options: EmbyTargetOptions) {
    const { name, api, ...tuning } = options;
    this.name = name;
    this.api = api;
    this.logger = options.logger;
    this.libraries = new LibraryCache({ ...tuning, name, fetch: () => this.api.listLibraries() });
  }

  listLibraries(): Promise<Library[]> {
    return this.libraries.listLibraries();
  }

  async scan(folder: string, library: Library, files?: readonly string[]): Promise<void> {
    const paths = files && files.length > 0 ? files : [folder];
    try {
      await this.api.mediaUpdated(paths.map((path) => ({ path, updateType: "Created" })));
    } catch (error) {
      if (error instanceof TargetUnavailableError) this.libraries.markStale();
      throw error;
    }
    this.logger?.debug({ target: this.name, folder, library: library.title, paths: paths.length }, "emby media update sent");
  }
}
