import { TargetFatalError, TargetNothingToDoError, type Library } from "../../domain.js";
import { ArrClient, type ArrTargetApp } from "./client.js";
import { ArrItemIndex } from "./items.js";
import { CachedTarget } from "../cached-target.js";
import { keyClientOptionsOf, type TargetFactory } from "../factory.js";
import type { LibraryCacheTuning } from "../library-cache.js";

export type ArrApi = Pick<ArrClient, "where" | "app" | "rootFolders" | "items" | "status" | "rescan">;

export interface ArrTargetOptions extends LibraryCacheTuning {
  name: string;
  api: ArrApi;
}

/**
 * Sonarr or Radarr as a target: when a folder changed outside the app (a
 * Tdarr remux renamed a file), the app rescans the series or movie holding
 * it. Its libraries are its root folders (a folder outside them is not the
 * app's: skipped there); the item is found by path in a list fetched once
 * per delivery batch; a folder no item holds is nothing to do, not a failure.
 */
export class ArrTarget extends CachedTarget {
  /** One rescan covers the item, whatever root folder holds it. */
  readonly scansPerLibrary = false;
  readonly where: string;
  private readonly api: ArrApi;
  private readonly index: ArrItemIndex;

  constructor(options: ArrTargetOptions) {
    const { name, api, ...tuning } = options;
    const roots = async (): Promise<Library[]> =>
      (await api.rootFolders()).map((root) => ({ id: `root-${root.id}`, title: root.path, type: "rootfolder", locations: [root.path] }));
    super(name, tuning, roots);
    this.api = api;
    this.where = api.where;
    this.index = new ArrItemIndex(() => this.recorded(() => api.items()), tuning.clock);
  }

  async scan(folder: string, _library: Library, _files?: readonly string[]): Promise<void> {
    const { noun, appName } = this.api.app;
    const item = await this.refetchOnOutage(() => this.index.holderOf(folder));
    if (!item) throw new TargetNothingToDoError(`no ${noun} of ${appName} holds ${folder}; nothing to rescan`);
    await this.refetchOnOutage(() => this.api.rescan(item));
    this.logger?.debug({ target: this.name, folder, id: item.id, title: item.title }, `${appName} asked to rescan the ${noun}`);
  }

  /** For doctor: the URL is this app (a Radarr URL under TYPE "sonarr" is refused) and takes the API key. */
  async checkAccess(): Promise<string> {
    const { appName, version } = await this.recorded(() => this.api.status());
    const expected = this.api.app.appName;
    if (appName.toLowerCase() !== expected.toLowerCase()) {
      throw new TargetFatalError(`${this.where} is ${appName || "not an *arr app"}, not ${expected}; check the URL and TYPE`);
    }
    return `${appName} ${version} takes the API key`;
  }
}

/** The factory of TYPE "sonarr" or "radarr": URL and TOKEN (the app's API key). */
export function arrTargetFactory(app: ArrTargetApp): TargetFactory {
  return (entry, deps) => {
    const api = new ArrClient({ app, ...keyClientOptionsOf(entry, deps) });
    return new ArrTarget({ name: entry.entry.NAME, api, clock: deps.clock, logger: deps.logger });
  };
}
