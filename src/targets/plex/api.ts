import { TargetFatalError, type Library } from "../../domain.js";
import { HttpClient } from "../../http/client.js";
import { parseServerUrl } from "../server-url.js";
import { readMediaContainer } from "./container.js";
import { parseFolderListing, type FolderListing } from "./folder-listing.js";
import { parseIdentity, parseSectionStates, parseSections, type PlexIdentity, type PlexSection } from "./parse-sections.js";
import { plexStatusHints } from "./status-hints.js";

export interface PlexApiOptions {
  /** PLEX_LOCAL_URL, e.g. `http://localhost:32400` or `https://proxy/plex`. */
  baseUrl: string;
  /** PLEX_TOKEN; empty for an unclaimed server or an allowed network. */
  token: string;
  /** The config keys of the URL and the token, for messages; PLEX_LOCAL_URL and PLEX_TOKEN by default. */
  urlKey?: string;
  tokenKey?: string;
  /** Per request, body included. Defaults to 10 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** 10 s: Plex answers its API at once (scans run in the background). */
const DEFAULT_TIMEOUT_MS = 10_000;
export type { PlexIdentity, PlexSection } from "./parse-sections.js";
export { parseIdentity, parseSectionStates, parseSections } from "./parse-sections.js";

/** The leaf type (movie, episode, track, photo) counted for a section type. */
const LEAF_TYPES: Record<string, number> = { movie: 1, show: 4, artist: 10, photo: 13 };

/**
 * The Plex Media Server HTTP API, reduced to what a scan trigger needs. Calls
 * marked admin answer 403 (TargetAuthError) to a shared user's token. The
 * token travels in the `X-Plex-Token` header only (HttpClient: no redirect
 * followed, no token in any message).
 */
export class PlexApiClient {
  private readonly http: HttpClient;
  /** The server as named in messages: no query, no credentials. */
  readonly where: string;

  private readonly tokenless: boolean;

  constructor(options: PlexApiOptions) {
    this.tokenless = options.token === "";
    const urlKey = options.urlKey ?? "PLEX_LOCAL_URL";
    const tokenKey = options.tokenKey ?? "PLEX_TOKEN";
    const root = parseServerUrl(options.baseUrl, urlKey, tokenKey);
    this.where = root;
    this.http = new HttpClient({
      label: { kind: "Plex", where: root, credential: tokenKey, urlKey, hints: plexStatusHints(tokenKey) },
      root,
      headers: options.token === "" ? {} : { "X-Plex-Token": options.token },
      secrets: [options.token],
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      fetch: options.fetch,
    });
  }

  /** Every library (section) with its folders, from `GET /library/sections`. */
  async listLibraries(): Promise<Library[]> {
    const action = "list the libraries";
    const body = await this.http.call("GET", "/library/sections", action);
    return this.http.parsed(() => parseSections(body.text, body.type), action);
  }

  /** Every section with its folders and whether it is `refreshing`: one call answers for all sections. */
  async listSections(): Promise<PlexSection[]> {
    const action = "list the libraries";
    const body = await this.http.call("GET", "/library/sections", action);
    return this.http.parsed(() => parseSectionStates(body.text, body.type), action);
  }

  /**
   * Asks Plex to scan `folder` (a directory, in Plex's own path form) in
   * section `sectionId`. Plex answers at once and scans in the background. Admin.
   */
  async refresh(sectionId: string, folder: string): Promise<void> {
    const path = `/library/sections/${encodeURIComponent(sectionId)}/refresh?path=${encodeURIComponent(folder)}`;
    await this.http.call("GET", path, `scan ${folder} in section ${sectionId}`);
  }

  /** `GET /identity`: liveness and version. Plex answers it without checking the token. */
  async identity(): Promise<PlexIdentity> {
    const action = "identify itself";
    const body = await this.http.call("GET", "/identity", action);
    return this.http.parsed(() => parseIdentity(body.text, body.type), action);
  }

  /**
   * `GET /butler` (the scheduled tasks): read-only but admin-only, so a
   * shared user's token gets 403 here as it would on a scan (round2.md §3).
   */
  async checkAdmin(): Promise<void> {
    await this.http.call("GET", "/butler", "list its scheduled tasks (an admin-only call)");
  }

  /** What doctor shows: the token may scan (checkAdmin), or the server answers without one. */
  async checkAccess(): Promise<string> {
    await this.checkAdmin();
    return this.tokenless ? "answers without a token (an allowed network or an unclaimed server)" : "token accepted, admin";
  }

  /** `PUT /library/metadata/{ratingKey}/analyze` (GET is refused with 405). Admin. */
  async analyzeItem(ratingKey: string): Promise<void> {
    await this.http.call("PUT", `/library/metadata/${itemId(ratingKey)}/analyze`, `analyze item ${ratingKey}`);
  }

  /** `PUT /library/metadata/{ratingKey}/refresh`: fetch the item's metadata again. Admin. */
  async refreshItem(ratingKey: string): Promise<void> {
    await this.http.call("PUT", `/library/metadata/${itemId(ratingKey)}/refresh`, `refresh the metadata of item ${ratingKey}`);
  }

  /** `PUT /library/sections/{id}/emptyTrash`: deletes for good what Plex holds as missing. Admin. */
  async emptyTrash(sectionId: string): Promise<void> {
    await this.http.call("PUT", `/library/sections/${encodeURIComponent(sectionId)}/emptyTrash`, `empty the trash of section ${sectionId}`);
  }

  /**
   * How many items of the section sit in the trash: `GET …/all?trash=1` with
   * a zero-sized page, read from `totalSize`. An answer without a total is an
   * error, never a zero: a guard must not pass on a count it could not read.
   */
  async countTrash(sectionId: string, sectionType: string): Promise<number> {
    const action = `count the trashed items of section ${sectionId}`;
    const leaf = LEAF_TYPES[sectionType];
    const query = `trash=1${leaf === undefined ? "" : `&type=${leaf}`}&X-Plex-Container-Start=0&X-Plex-Container-Size=0`;
    const body = await this.http.call("GET", `/library/sections/${encodeURIComponent(sectionId)}/all?${query}`, action);
    return this.http.parsed(() => {
      const total = Number(readMediaContainer(body.text, body.type).totalSize);
      if (!Number.isSafeInteger(total) || total < 0) throw new Error("the answer has no totalSize");
      return total;
    }, action);
  }

  /**
   * One folder of the section's folder view: its root when `key` is absent,
   * else the `key` of a sub-folder from an earlier listing.
   */
  async listFolder(sectionId: string, key?: string): Promise<FolderListing> {
    const root = `/library/sections/${encodeURIComponent(sectionId)}/folder`;
    // Keys come from Plex's own answers; anything outside this section's folder view is not followed.
    if (key !== undefined && !key.startsWith(`${root}?`)) {
      throw new TargetFatalError(`Plex at ${this.where} listed a folder key outside section ${sectionId}: ${JSON.stringify(key)}`);
    }
    const action = `list a folder of section ${sectionId}`;
    const body = await this.http.call("GET", key ?? root, action);
    return this.http.parsed(() => parseFolderListing(body.text, body.type), action);
  }
}

/** A ratingKey is a number; anything else would change the path it is put in. */
function itemId(ratingKey: string): string {
  if (!/^[0-9]+$/.test(ratingKey)) throw new TargetFatalError(`not a Plex item id: ${JSON.stringify(ratingKey)}`);
  return ratingKey;
}
