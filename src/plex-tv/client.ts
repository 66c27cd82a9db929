import { HttpClient, isFields } from "../http/client.js";

/** Who scanarr says it is to plex.tv (round3.md §2): the same client identifier for one installation. */
export interface PlexTvOptions {
  /** `https://plex.tv` unless PLEX_TV_URL says otherwise (read by the command, passed in). */
  baseUrl: string;
  clientId: string;
  version: string;
  /** Per request; 15 s by default. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** A sign-in PIN: the 4-character `code` is typed at plex.tv/link; `authToken` is set once the user signed in. */
export interface PlexPin {
  id: number;
  code: string;
  /** When the PIN stops working (ISO time), if plex.tv said. */
  expiresAt?: string;
  authToken?: string;
}

/** One way to reach a server, as plex.tv lists it. */
export interface PlexConnection {
  uri: string;
  local: boolean;
  relay: boolean;
}

/** One entry of the account's resources: a server, a player or a client. */
export interface PlexResource {
  name: string;
  /** The server's machineIdentifier. */
  clientIdentifier: string;
  provides: string[];
  owned: boolean;
  /** The token to use for this server (only an owned server's may scan). */
  accessToken?: string;
  connections: PlexConnection[];
}

export const PLEX_PRODUCT = "scanarr";

/**
 * plex.tv's sign-in and resource API (round3.md §2): PINs, and the account's
 * servers with their connections and tokens. Every call carries the
 * X-Plex-* headers; a token travels only in `X-Plex-Token` and never
 * appears in an error.
 */
export class PlexTvClient {
  constructor(private readonly options: PlexTvOptions) {}

  /** `POST /api/v2/pins` without `strong=true`: a 4-character code for plex.tv/link. */
  async createPin(): Promise<PlexPin> {
    const answer = await this.http().call("POST", "/api/v2/pins?strong=false", "create a sign-in PIN");
    return this.http().readJson(answer, "create a sign-in PIN", readPin);
  }

  /** `GET /api/v2/pins/{id}`; undefined once the PIN expired (plex.tv answers 404 for it). */
  async readPin(id: number): Promise<PlexPin | undefined> {
    const action = "check the sign-in PIN";
    const answer = await this.http().call("GET", `/api/v2/pins/${id}`, action, { pass: [404] });
    if (answer.status === 404) return undefined;
    return this.http().readJson(answer, action, readPin);
  }

  /** `GET /api/v2/resources`: every server, player and client of the account, with connections. */
  async listResources(accountToken: string): Promise<PlexResource[]> {
    const action = "list the account's servers";
    const http = this.http(accountToken);
    const answer = await http.call("GET", "/api/v2/resources?includeHttps=1&includeRelay=1", action);
    return http.readJson(answer, action, (data) => {
      if (!Array.isArray(data)) throw new Error("the answer is not a list");
      return data.filter(isFields).map(readResource);
    });
  }

  /** The `app.plex.tv/auth` address that signs this PIN in from a browser (the long form of plex.tv/link). */
  authUrl(pin: PlexPin): string {
    const query = new URLSearchParams({ clientID: this.options.clientId, code: pin.code, "context[device][product]": PLEX_PRODUCT });
    return `https://app.plex.tv/auth#?${query.toString()}`;
  }

  private http(token?: string): HttpClient {
    const root = this.options.baseUrl.replace(/\/+$/, "");
    const headers: Record<string, string> = {
      "X-Plex-Product": PLEX_PRODUCT,
      "X-Plex-Version": this.options.version,
      "X-Plex-Client-Identifier": this.options.clientId,
      "X-Plex-Device-Name": PLEX_PRODUCT,
    };
    if (token !== undefined) headers["X-Plex-Token"] = token;
    return new HttpClient({
      label: { kind: "plex.tv", where: root, credential: "the plex.tv sign-in" },
      root,
      headers,
      secrets: token === undefined ? [] : [token],
      timeoutMs: this.options.timeoutMs ?? 15_000,
      fetch: this.options.fetch,
    });
  }
}

function readPin(data: unknown): PlexPin {
  if (!isFields(data) || typeof data.id !== "number" || typeof data.code !== "string") throw new Error("the answer is not a PIN");
  return {
    id: data.id,
    code: data.code,
    expiresAt: typeof data.expiresAt === "string" ? data.expiresAt : undefined,
    authToken: typeof data.authToken === "string" && data.authToken !== "" ? data.authToken : undefined,
  };
}

function readResource(data: Record<string, unknown>): PlexResource {
  const text = (value: unknown): string => (typeof value === "string" ? value : "");
  const connections = Array.isArray(data.connections) ? data.connections.filter(isFields) : [];
  return {
    name: text(data.name),
    clientIdentifier: text(data.clientIdentifier),
    provides: text(data.provides)
      .split(",")
      .map((p) => p.trim())
      .filter((p) => p !== ""),
    owned: data.owned === true || data.owned === 1 || data.owned === "1",
    accessToken: typeof data.accessToken === "string" && data.accessToken !== "" ? data.accessToken : undefined,
    connections: connections
      .filter((c) => typeof c.uri === "string")
      .map((c) => ({ uri: c.uri as string, local: c.local === true || c.local === 1, relay: c.relay === true || c.relay === 1 })),
  };
}
