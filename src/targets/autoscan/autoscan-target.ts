import { TargetUnavailableError, type Library, type Target } from "../../domain.js";
import type { Logger } from "../../lib/logger.js";
import { LibraryCache, type LibraryCacheTuning } from "../library-cache.js";
import type { AutoscanApiClient } from "./api.js";

export type AutoscanApi = Pick<AutoscanApiClient, "available" | "trigger">;

export interface AutoscanTargetOptions extends LibraryCacheTuning {
  name: string;
  api: AutoscanApi;
}

const DRIVES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("").map((letter) => `${letter}:\\`);

/**
 * The one library an autoscan-compatible target has. The other side has no
 * libraries of its own (it decides where a folder goes), so every absolute
 * folder belongs here: the POSIX root, the UNC root and every drive root.
 */
export const CATCH_ALL_LIBRARY: Library = { id: "all", title: "all folders", type: "any", locations: ["/", "\\\\", ...DRIVES] };

/**
 * Chaining to autoscan (or another scanarr). listLibraries() checks that the
 * trigger is up with `HEAD /triggers/manual` (cached like any library list,
 * and again after a failed scan) and returns the catch-all library; a scan
 * sends the folder (autoscan scans folders, so named files are not sent).
 */
export class AutoscanTarget implements Target {
  readonly name: string;
  readonly libraries: LibraryCache;
  private readonly api: AutoscanApi;
  private readonly logger: Logger | undefined;

  constructor(options: AutoscanTargetOptions) {
    const { name, api, ...tuning } = options;
    this.name = name;
    this.api = api;
    this.logger = options.logger;
    this.libraries = new LibraryCache({
      ...tuning,
      name,
      // Known before any check, so requests are never refused for this target.
      initial: [CATCH_ALL_LIBRARY],
      fetch: async () => {
        await this.api.available();
        return [CATCH_ALL_LIBRARY];
      },
    });
  }

  listLibraries(): Promise<Library[]> {
    return this.libraries.listLibraries();
  }

  async scan(folder: string, _library: Library, _files?: readonly string[]): Promise<void> {
    try {
      await this.api.trigger([folder]);
    } catch (error) {
      if (error instanceof TargetUnavailableError) this.libraries.markStale();
      throw error;
    }
    this.logger?.debug({ target: this.name, folder }, "autoscan trigger sent");
  }
}
