import { TargetAuthError, type Library } from "../../domain.js";
import { HttpClient, isFields } from "../../http/client.js";
import { SingleFlight } from "../../lib/single-flight.js";
import type { KeyClientOptions } from "../factory.js";
import { parseServerUrl } from "../server-url.js";

/** `apiKey` is an API token; empty when the client logs in with `username` and `password` instead. */
export interface AudiobookshelfApiOptions extends KeyClientOptions {
  username: string;
  password: string;
}

/**
 * Audiobookshelf's API as a scan target uses it (round4.md §2): `POST /login`
 * trades a user's name and password for a token; every other call carries
 * `Authorization: Bearer <token>` (an API token works the same way). `GET
 * /api/libraries` lists the libraries with their folders, and `POST
 * /api/watcher/update` asks a library to look at a path as its own file
 * watcher would.
 */
export class AudiobookshelfApiClient {
  readonly where: string;
  private readonly options: AudiobookshelfApiOptions;
  private readonly root: string;
  /** The client holding the token in use; rebuilt after a login. */
  private authed: HttpClient | undefined;
  private readonly loggingIn = new SingleFlight<HttpClient>();

  constructor(options: AudiobookshelfApiOptions) {
    this.options = options;
    this.root = parseServerUrl(options.baseUrl, options.urlKey, options.credentialKey);
    this.where = this.root;
    if (options.apiKey !== "") this.authed = this.client(options.apiKey);
  }

  /** `GET /api/libraries`: each library with the folders it reads (`folders[].fullPath`). */
  listLibraries(): Promise<Library[]> {
    const action = "list the libraries";
    return this.withToken(async (http) => http.readJson(await http.call("GET", "/api/libraries", action), action, readLibraries));
  }

  /** `POST /api/watcher/update {"libraryId", "path", "type": "add"}`: the library looks at `path` now. */
  async watcherUpdate(libraryId: string, path: string): Promise<void> {
    await this.withToken((http) =>
      http.call("POST", "/api/watcher/update", `look at ${path} in library ${libraryId}`, {
        json: { libraryId, path, type: "add" },
      }),
    );
  }

  /**
   * An empty `POST /api/watcher/update`: Audiobookshelf refuses a user who is
   * not an admin (403) before it reads the body, and answers 400 to an empty
   * one, which looks at nothing. For doctor (Target.checkAccess).
   */
  async checkWatcherAccess(): Promise<void> {
    await this.withToken((http) =>
      http.call("POST", "/api/watcher/update", "take a watcher update (an empty one, to check the rights)", { json: {}, pass: [400] }),
    );
  }

  /**
   * Runs `call` with a token. A token from a login that is refused later (it
   * expired, the server restarted with new secrets) is traded for a fresh one
   * once; a refused API token is the user's to fix.
   */
  private async withToken<T>(call: (http: HttpClient) => Promise<T>): Promise<T> {
    const http = this.authed ?? (await this.login());
    try {
      return await call(http);
    } catch (error) {
      if (this.options.apiKey !== "" || !(error instanceof TargetAuthError)) throw error;
      if (this.authed === http) this.authed = undefined;
      return call(this.authed ?? (await this.login()));
    }
  }

  /** Concurrent calls without a token share one login. */
  private login(): Promise<HttpClient> {
    return this.loggingIn.run(() => this.logInNow());
  }

  /** `POST /login {"username", "password"}` → `{"user": {"token"}}`. */
  private async logInNow(): Promise<HttpClient> {
    const { username, password } = this.options;
    const http = this.client("");
    const action = "log in";
    const answer = await http.call("POST", "/login", action, { json: { username, password } });
    const token = http.readJson(answer, action, (data) => {
      const user = isFields(data) ? data.user : undefined;
      if (!isFields(user) || typeof user.token !== "string" || user.token === "") throw new Error("no user.token in the answer");
      return user.token;
    });
    this.authed = this.client(token);
    return this.authed;
  }

  private client(token: string): HttpClient {
    const { password, credentialKey, urlKey, timeoutMs, fetch } = this.options;
    return new HttpClient({
      label: { kind: "Audiobookshelf", where: this.root, credential: credentialKey, urlKey, hints: { forbidden: FORBIDDEN } },
      root: this.root,
      headers: token === "" ? {} : { Authorization: `Bearer ${token}` },
      secrets: [token, password].filter((s) => s !== ""),
      timeoutMs,
      fetch,
    });
  }
}

const FORBIDDEN = "the user is not an admin; Audiobookshelf takes watcher updates from admins only";

/** `{"libraries": [{"id", "name", "mediaType", "folders": [{"fullPath"}]}]}` → libraries located at their folders. */
export function readLibraries(data: unknown): Library[] {
  const list = isFields(data) ? data.libraries : undefined;
  if (!Array.isArray(list)) throw new Error("no libraries list in the answer");
  return list.map((raw: unknown) => {
    if (!isFields(raw) || typeof raw.id !== "string" || !Array.isArray(raw.folders)) throw new Error("a library without an id or folders");
    const locations = raw.folders.map((folder: unknown) => {
      if (!isFields(folder) || typeof folder.fullPath !== "string") throw new Error(`library ${raw.id} has a folder without a fullPath`);
      return folder.fullPath;
    });
    const title = typeof raw.name === "string" ? raw.name : raw.id;
    return { id: raw.id, title, type: typeof raw.mediaType === "string" ? raw.mediaType : "audiobookshelf", locations };
  });
}
