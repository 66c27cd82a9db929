import { TargetFatalError, TargetNothingToDoError, type Library } from "../../domain.js";
import { CachedTarget } from "../cached-target.js";
import type { TargetFactory } from "../factory.js";
import type { LibraryCacheTuning } from "../library-cache.js";
import { FileFlowsApiClient, type FileFlowsLibrary } from "./api.js";

export type FileFlowsApi = Pick<FileFlowsApiClient, "where" | "listLibraries" | "findFile" | "reprocess" | "manuallyAdd">;

export interface FileFlowsTargetOptions extends LibraryCacheTuning {
  name: string;
  api: FileFlowsApi;
}

/**
 * FileFlows. Its libraries are the ones it lists, each at its `Path`, so a
 * folder outside all of them is skipped there. A scan hands each file the
 * request named to the library holding it: a file FileFlows knows is
 * reprocessed, a new one is added to the library's flow. A request naming no
 * file (a folder, a deletion) needs nothing: FileFlows watches its libraries.
 * A disabled library, or one without a flow, takes no files: that is
 * reported as a failure that retrying cannot mend.
 */
export class FileFlowsTarget extends CachedTarget {
  readonly scansPerLibrary = false;
  readonly where: string;
  private readonly api: FileFlowsApi;
  /** What the last library list said of each library beyond its folder: enabled, and its flow. */
  private readonly details: Map<string, FileFlowsLibrary>;

  constructor(options: FileFlowsTargetOptions) {
    const { name, api, ...tuning } = options;
    const details = new Map<string, FileFlowsLibrary>();
    const fetch = async (): Promise<Library[]> => {
      const listed = await api.listLibraries();
      details.clear();
      for (const library of listed) details.set(library.uid, library);
      return listed.flatMap((l) => (l.path === undefined ? [] : [{ id: l.uid, title: l.name, type: "fileflows", locations: [l.path] }]));
    };
    super(name, tuning, fetch);
    this.api = api;
    this.where = api.where;
    this.details = details;
  }

  async scan(folder: string, library: Library, files: readonly string[] = []): Promise<void> {
    if (files.length === 0) throw new TargetNothingToDoError(`FileFlows watches its libraries; ${folder} named no file to hand it`);
    const flowUid = this.flowOf(library);
    const { known, added } = await this.refetchOnOutage(async () => {
      const uids: string[] = [];
      const fresh: string[] = [];
      for (const file of files) {
        const uid = await this.api.findFile(file);
        if (uid === undefined) fresh.push(file);
        else uids.push(uid);
      }
      if (uids.length > 0) await this.api.reprocess(uids);
      if (fresh.length > 0) await this.api.manuallyAdd(flowUid, fresh);
      return { known: uids.length, added: fresh.length };
    });
    this.logger?.debug({ target: this.name, folder, library: library.title, known, added }, "fileflows handed the files");
  }

  /** For doctor: which libraries can take files (enabled, with a flow); one that cannot is named. */
  async checkAccess(): Promise<string> {
    const listed = await this.recorded(() => this.api.listLibraries());
    const unable = listed.filter((l) => whyNoFiles(l) !== undefined).map((l) => `"${l.name}" ${whyNoFiles(l)}`);
    const can = `${listed.length - unable.length} of ${listed.length} libraries take files`;
    return unable.length === 0 ? can : `${can}; ${unable.join(", ")}`;
  }

  /** The flow new files of `library` go to; a TargetFatalError when it takes none (the list is fetched again before the next scan). */
  private flowOf(library: Library): string {
    const detail = this.details.get(library.id);
    const why = detail === undefined ? "is no longer listed" : whyNoFiles(detail);
    if (why === undefined && detail?.flowUid !== undefined) return detail.flowUid;
    this.libraries.markStale();
    throw new TargetFatalError(`FileFlows library "${library.title}" ${why ?? "has no flow"}, so it takes no files; fix it in FileFlows`);
  }
}

/** Why FileFlows would refuse files for this library, or undefined when it takes them. */
function whyNoFiles(library: FileFlowsLibrary): string | undefined {
  if (!library.enabled) return "is disabled";
  if (library.flowUid === undefined) return "has no flow";
  if (library.path === undefined) return "has no path";
  return undefined;
}

/** A TARGETS entry of TYPE "fileflows": its URL. */
export const createFileFlowsTarget: TargetFactory = ({ entry, at }, { clock, logger, fetch, timeoutMs }) => {
  const api = new FileFlowsApiClient({ baseUrl: entry.URL, urlKey: `${at}.URL`, timeoutMs, fetch });
  return new FileFlowsTarget({ name: entry.NAME, api, clock, logger });
};
