import { TargetUnavailableError, type Library } from "../../domain.js";
import { isTargetError, redactSecrets } from "../http-errors.js";
import { parseServerUrl } from "../server-url.js";
import { errorForFailure, errorForStatus } from "./errors.js";

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

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The Plex Media Server HTTP API, reduced to what a scan trigger needs.
 * The token travels in the `X-Plex-Token` header only, so it stays out of
 * proxy and access logs, and no error message ever contains it.
 */
export class PlexApiClient {
  private readonly root: string;
  /** The server as named in messages: no query, no credentials. */
  readonly where: string;
  private readonly token: string;
  private readonly timeoutMs: number;
  private readonly fetchFn: typeof fetch;

  constructor(options: PlexApiOptions) {
    this.root = parseServerUrl(options.baseUrl, options.urlKey ?? "PLEX_LOCAL_URL", options.tokenKey ?? "PLEX_TOKEN");
    this.where = this.root;
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetchFn = options.fetch ?? fetch;
  }

  /** Every library (section) with its folders, from `GET /library/sections`. */
  async listLibraries(): Promise<Library[]> {
    const action = "list the libraries";
    const body = await this.get("/library/sections", action);
    return this.parsed(() => parseSections(body.text, body.type), action);
  }

  /**
   * Asks Plex to scan `folder` (a directory, in Plex's own path form) in
   * section `sectionId`. Plex answers at once and scans in the background.
   */
  async refresh(sectionId: string, folder: string): Promise<void> {
    const path = `/library/sections/${encodeURIComponent(sectionId)}/refresh?path=${encodeURIComponent(folder)}`;
    await this.get(path, `scan ${folder} in section ${sectionId}`);
  }

  /** `GET /identity`: liveness and version. Plex answers it without checking the token. */
  async identity(): Promise<PlexIdentity> {
    const action = "identify itself";
    const body = await this.get("/identity", action);
    return this.parsed(() => parseIdentity(body.text, body.type), action);
  }

  private async get(path: string, action: string): Promise<{ text: string; type: string }> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (this.token !== "") headers["X-Plex-Token"] = this.token;
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      // A redirect would carry the token header to wherever it points: refuse to follow.
      const response = await this.fetchFn(this.root + path, { headers, signal, redirect: "manual" });
      const failure = errorForStatus(response.status, action, this.where);
      if (failure) {
        await response.body?.cancel().catch(() => undefined);
        throw failure;
      }
      return { text: await response.text(), type: response.headers.get("content-type") ?? "" };
    } catch (error) {
      throw this.redacted(isTargetError(error) ? error : errorForFailure(error, action, this.where, this.timeoutMs));
    }
  }

  private parsed<T>(parse: () => T, action: string): T {
    try {
      return parse();
    } catch (error) {
      // A proxy's login page or a half-started server: retry later rather than give up.
      const reason = error instanceof Error ? error.message : String(error);
      throw this.redacted(new TargetUnavailableError(`Plex at ${this.where} gave an unreadable answer when asked to ${action}: ${reason}`));
    }
  }

  /** Belt and braces: no message leaves this class with the token in it. */
  private redacted(error: Error): Error {
    return redactSecrets(error, [this.token]);
  }
}

/** What `GET /identity` says about the server. */
export interface PlexIdentity {
  machineIdentifier: string;
  version: string;
  claimed: boolean;
}

type Fields = Record<string, unknown>;

/**
 * `MediaContainer.Directory[]` of `/library/sections`, in JSON or in XML
 * (Plex's default when a proxy drops our Accept header). Plex leaves out
 * `Directory` when there is no library, and `Location` may be missing.
 */
export function parseSections(text: string, contentType: string): Library[] {
  if (isXml(text, contentType)) return parseXmlSections(text);
  const container = readContainer(text);
  return asArray(container.Directory).flatMap((entry) => {
    if (!isFields(entry)) return [];
    const locations = asArray(entry.Location).flatMap((l) => (isFields(l) && typeof l.path === "string" ? [l.path] : []));
    const library = toLibrary(entry, locations);
    return library ? [library] : [];
  });
}

export function parseIdentity(text: string, contentType: string): PlexIdentity {
  const fields = isXml(text, contentType) ? xmlContainer(text) : readContainer(text);
  const claimed = fields.claimed;
  return {
    machineIdentifier: String(fields.machineIdentifier ?? ""),
    version: String(fields.version ?? ""),
    claimed: claimed === true || claimed === "1" || claimed === 1,
  };
}

function readContainer(text: string): Fields {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error("the body is neither JSON nor XML");
  }
  // Plex answers 200 without a MediaContainer for a section that was just removed.
  if (!isFields(data) || !isFields(data.MediaContainer)) throw new Error("no MediaContainer in the answer");
  return data.MediaContainer;
}

function toLibrary(fields: Fields, locations: string[]): Library | undefined {
  const key = fields.key;
  if (typeof key !== "string" && typeof key !== "number") return undefined;
  const id = String(key);
  if (id === "") return undefined;
  const title = typeof fields.title === "string" ? fields.title : id;
  const type = typeof fields.type === "string" ? fields.type : "unknown";
  return { id, title, type, locations };
}

function isXml(text: string, contentType: string): boolean {
  if (/json/i.test(contentType)) return false;
  return /xml/i.test(contentType) || text.trimStart().startsWith("<");
}

const TAG = /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** Enough XML for Plex's flat attribute-only answers; no DTDs, no CDATA. */
function parseXmlSections(text: string): Library[] {
  xmlContainer(text);
  const libraries: Library[] = [];
  let open: { fields: Fields; locations: string[] } | undefined;
  for (const [, closing, name, attributes = "", selfClosing] of text.matchAll(TAG)) {
    if (name === "Directory" && closing === "") {
      open = { fields: readAttributes(attributes), locations: [] };
    } else if (name === "Location" && closing === "" && open) {
      const path = readAttributes(attributes).path;
      if (typeof path === "string") open.locations.push(path);
    }
    const closesDirectory = name === "Directory" && (closing === "/" || selfClosing === "/");
    if (closesDirectory && open) {
      const library = toLibrary(open.fields, open.locations);
      if (library) libraries.push(library);
      open = undefined;
    }
  }
  return libraries;
}

function xmlContainer(text: string): Fields {
  for (const [, closing, name, attributes = ""] of text.matchAll(TAG)) {
    if (name === "MediaContainer" && closing === "") return readAttributes(attributes);
  }
  throw new Error("no MediaContainer in the answer");
}

function readAttributes(source: string): Fields {
  const fields: Fields = {};
  for (const [, name = "", double, single] of source.matchAll(ATTRIBUTE)) {
    fields[name] = decodeEntities(double ?? single ?? "");
  }
  return fields;
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] !== "#") return NAMED[body] ?? whole;
    const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function isFields(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Plex sends arrays; XML-to-JSON proxies sometimes send a lone object. */
function asArray(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value === undefined || value === null ? [] : [value];
}
