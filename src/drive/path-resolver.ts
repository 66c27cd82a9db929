import type { FolderCache } from "./folder-cache.js";
import { FOLDER_MIME, type DriveApi, type DriveItem } from "./types.js";

/** Ancestors fetched for one file at most; deeper trees than this are not media libraries. */
const MAX_FETCHES = 32;

/**
 * Resolves folder paths from the cache, calling files.get only for an ancestor
 * the cache has never seen (a change list that names a file before its new
 * parent folder). Fetched folders join the cache, so each is fetched once.
 */
export class PathResolver {
  /** Ids Drive did not return during this resolver's life; not asked for twice. */
  private readonly invisible = new Set<string>();

  constructor(
    private readonly cache: FolderCache,
    private readonly api: DriveApi,
    private readonly logKey: string,
  ) {}

  /** Full path of the folder `folderId`, or undefined when it is outside every watched root. */
  async resolveFolder(folderId: string): Promise<string | undefined> {
    for (let fetches = 0; fetches <= MAX_FETCHES; fetches++) {
      const found = this.cache.resolve(folderId);
      if (found.kind === "path") return found.path;
      if (found.kind === "outside" || this.invisible.has(found.id)) return undefined;
      const item = await this.api.getItem(found.id);
      if (!item || item.mimeType !== FOLDER_MIME || item.trashed) {
        this.invisible.add(found.id);
        return undefined;
      }
      this.cache.apply(this.logKey, [item], []);
    }
    return undefined;
  }

  /** Full path of a file: its parent folder's path plus its name. */
  async resolveFile(file: DriveItem): Promise<string | undefined> {
    if (file.parentId === undefined) return undefined;
    const folder = await this.resolveFolder(file.parentId);
    return folder === undefined ? undefined : `${folder}/${file.name}`;
  }
}
