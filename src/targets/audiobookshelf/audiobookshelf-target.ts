import type { Library } from "../../domain.js";
import { CachedTarget } from "../cached-target.js";
import { keyClientOptionsOf, type TargetFactory } from "../factory.js";
import type { LibraryCacheTuning } from "../library-cache.js";
import { AudiobookshelfApiClient } from "./api.js";

export type AudiobookshelfApi = Pick<AudiobookshelfApiClient, "where" | "listLibraries" | "watcherUpdate" | "checkWatcherAccess">;

export interface AudiobookshelfTargetOptions extends LibraryCacheTuning {
  name: string;
  api: AudiobookshelfApi;
}

/**
 * Audiobookshelf. Its libraries are the ones it lists, located at their
 * folders, so a folder outside all of them is skipped there; a scan tells the
 * library holding the folder to look at each file the request named (or at
 * the folder when it named none), as its own file watcher would. The
 * watcher call names one library, so a folder two libraries read is sent to
 * each.
 */
export class AudiobookshelfTarget extends CachedTarget {
  readonly scansPerLibrary = true;
  readonly where: string;
  private readonly api: AudiobookshelfApi;

  constructor(options: AudiobookshelfTargetOptions) {
    const { name, api, ...tuning } = options;
    super(name, tuning, () => api.listLibraries());
    this.api = api;
    this.where = api.where;
  }

  async scan(folder: string, library: Library, files: readonly string[] = []): Promise<void> {
    const paths = files.length > 0 ? files : [folder];
    await this.refetchOnOutage(async () => {
      for (const path of paths) await this.api.watcherUpdate(library.id, path);
    });
    this.logger?.debug({ target: this.name, folder, library: library.title, paths: paths.length }, "audiobookshelf asked to look");
  }

  /** For doctor: the user may send watcher updates (an admin), proven by an empty one. */
  async checkAccess(): Promise<string> {
    await this.recorded(() => this.api.checkWatcherAccess());
    return "credential accepted for watcher updates (an admin user)";
  }
}

/** A TARGETS entry of TYPE "audiobookshelf": URL, and TOKEN or USERNAME and PASSWORD. */
export const createAudiobookshelfTarget: TargetFactory = (entry, deps) => {
  const { TOKEN, USERNAME, PASSWORD, NAME } = entry.entry;
  const credentialKey = TOKEN === "" ? `${entry.at}.USERNAME and ${entry.at}.PASSWORD` : `${entry.at}.TOKEN`;
  const api = new AudiobookshelfApiClient({ ...keyClientOptionsOf(entry, deps), credentialKey, username: USERNAME, password: PASSWORD });
  return new AudiobookshelfTarget({ name: NAME, api, clock: deps.clock, logger: deps.logger });
};
