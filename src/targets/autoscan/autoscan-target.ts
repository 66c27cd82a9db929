import type { Library } from "../../domain.js";
import { CachedTarget } from "../cached-target.js";
import { CATCH_ALL_LIBRARY } from "../catch-all.js";
import type { LibraryCacheTuning } from "../library-cache.js";
import type { TargetFactory } from "../factory.js";
import { AutoscanApiClient } from "./api.js";

export type AutoscanApi = Pick<AutoscanApiClient, "where" | "available" | "trigger">;

export interface AutoscanTargetOptions extends LibraryCacheTuning {
  name: string;
  api: AutoscanApi;
}

// The other side has no libraries of its own (it decides where a folder goes).
export { CATCH_ALL_LIBRARY };

/**
 * Chaining to autoscan (or another scanarr). listLibraries() checks that the
 * trigger is up with `HEAD /triggers/manual` (cached like any library list,
 * and again after a failed scan) and returns the catch-all library; a scan
 * sends the folder (autoscan scans folders, so named files are not sent).
 */
export class AutoscanTarget extends CachedTarget {
  /** One call covers the folder, whatever library holds it. */
  readonly scansPerLibrary = false;
  readonly where: string;
  private readonly api: AutoscanApi;

  constructor(options: AutoscanTargetOptions) {
    const { name, api, ...tuning } = options;
    const check = async (): Promise<Library[]> => {
      await api.available();
      return [CATCH_ALL_LIBRARY];
    };
    // Known before any check, so requests are never refused for this target.
    super(name, tuning, check, [CATCH_ALL_LIBRARY]);
    this.api = api;
    this.where = api.where;
  }

  async scan(folder: string, _library: Library, _files?: readonly string[]): Promise<void> {
    await this.refetchOnOutage(() => this.api.trigger([folder]));
    this.logger?.debug({ target: this.name, folder }, "autoscan trigger sent");
  }
}

/** A TARGETS entry of TYPE "autoscan": HTTP Basic with USERNAME and PASSWORD (both empty: none). */
export const createAutoscanTarget: TargetFactory = ({ entry, at }, { clock, logger, fetch, timeoutMs }) => {
  const api = new AutoscanApiClient({
    baseUrl: entry.URL,
    username: entry.USERNAME,
    password: entry.PASSWORD,
    urlKey: `${at}.URL`,
    credentialKey: `${at}.USERNAME and ${at}.PASSWORD`,
    timeoutMs,
    fetch,
  });
  return new AutoscanTarget({ name: entry.NAME, api, clock, logger });
};
