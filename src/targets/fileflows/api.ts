import { HttpClient, isFields } from "../../http/client.js";
import { parseServerUrl } from "../server-url.js";

export interface FileFlowsApiOptions {
  /** The server's address as scanarr reaches it (a reverse-proxy sub-path is kept). */
  baseUrl: string;
  /** Config key of the URL, for messages. */
  urlKey: string;
  /** Per request; 30 s by default. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** A FileFlows library as its API lists it. */
export interface FileFlowsLibrary {
  uid: string;
  name: string;
  enabled: boolean;
  /** The folder it watches; absent for a library without one. */
  path?: string;
  /** The flow new files go through; absent when none is set. */
  flowUid?: string;
}

/**
 * FileFlows' API as a scan target uses it (round4.md §3; its JSON keys are
 * PascalCase): `GET /api/library` lists the libraries, `POST
 * /api/library-file/search` tells whether a file is known, `reprocess` sends
 * known files through their flow again and `manually-add` hands new files to
 * a library's flow. No credential is sent, as autopulse sends none.
 */
export class FileFlowsApiClient {
  readonly where: string;
  private readonly http: HttpClient;

  constructor(options: FileFlowsApiOptions) {
    const root = parseServerUrl(options.baseUrl, options.urlKey, options.urlKey);
    this.where = root;
    this.http = new HttpClient({
      label: {
        kind: "FileFlows",
        where: root,
        credential: "FileFlows' security settings (scanarr sends no credential)",
        urlKey: options.urlKey,
      },
      root,
      headers: {},
      secrets: [],
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
    });
  }

  /** `GET /api/library`: `[{"Uid", "Name", "Enabled", "Path", "Flow": {"Uid"}}]`. */
  async listLibraries(): Promise<FileFlowsLibrary[]> {
    const action = "list the libraries";
    return this.http.readJson(await this.http.call("GET", "/api/library", action), action, readLibraries);
  }

  /** `POST /api/library-file/search {"Path", "Limit": 1}`: the file's Uid when FileFlows knows it. */
  async findFile(path: string): Promise<string | undefined> {
    const action = `look up ${path}`;
    const answer = await this.http.call("POST", "/api/library-file/search", action, { json: { Path: path, Limit: 1 } });
    return this.http.readJson(answer, action, (data) => {
      if (!Array.isArray(data)) throw new Error("the search answer is not a list");
      const first: unknown = data[0];
      if (first === undefined) return undefined;
      if (!isFields(first) || typeof first.Uid !== "string") throw new Error("a file without a Uid");
      return first.Uid;
    });
  }

  /** `POST /api/library-file/reprocess`: known files go through their flow again. */
  async reprocess(uids: readonly string[]): Promise<void> {
    const json = { Uids: uids, CustomVariables: {}, Mode: 0, BottomOfQueue: false };
    await this.http.call("POST", "/api/library-file/reprocess", `reprocess ${count(uids, "known file")}`, { json });
  }

  /** `POST /api/library-file/manually-add`: new files go to the library's flow. */
  async manuallyAdd(flowUid: string, files: readonly string[]): Promise<void> {
    const json = { FlowUid: flowUid, Files: files, CustomVariables: {} };
    await this.http.call("POST", "/api/library-file/manually-add", `add ${count(files, "new file")} (${files[0]}, …)`, { json });
  }
}

function count(items: readonly unknown[], noun: string): string {
  return `${items.length} ${noun}${items.length === 1 ? "" : "s"}`;
}

function readLibraries(data: unknown): FileFlowsLibrary[] {
  if (!Array.isArray(data)) throw new Error("the library answer is not a list");
  return data.map((raw: unknown) => {
    if (!isFields(raw) || typeof raw.Uid !== "string") throw new Error("a library without a Uid");
    const flow = isFields(raw.Flow) && typeof raw.Flow.Uid === "string" && raw.Flow.Uid !== "" ? raw.Flow.Uid : undefined;
    return {
      uid: raw.Uid,
      name: typeof raw.Name === "string" ? raw.Name : raw.Uid,
      enabled: raw.Enabled === true,
      ...(typeof raw.Path === "string" && raw.Path !== "" ? { path: raw.Path } : {}),
      ...(flow === undefined ? {} : { flowUid: flow }),
    };
  });
}
