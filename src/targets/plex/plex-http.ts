import { TargetUnavailableError } from "../../domain.js";
import { isTargetError, redactSecrets } from "../http-errors.js";
import { parseServerUrl } from "../server-url.js";
import { errorForFailure, errorForStatus } from "./errors.js";
import { messageOf } from "../../lib/errors.js";

export interface PlexHttpOptions {
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

/** A Plex answer that passed the status check. */
export interface PlexAnswer {
  text: string;
  type: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * One request to Plex and back, with every failure turned into a domain
 * error in one place (errors.ts). The token travels in the `X-Plex-Token`
 * header only, redirects are never followed, and no message leaves with the
 * token in it.
 */
export class PlexHttp {
  private readonly root: string;
  /** The server as named in messages: no query, no credentials. */
  readonly where: string;
  private readonly token: string;
  private readonly timeoutMs: number;
  private readonly fetchFn: typeof fetch;

  constructor(options: PlexHttpOptions) {
    this.root = parseServerUrl(options.baseUrl, options.urlKey ?? "PLEX_LOCAL_URL", options.tokenKey ?? "PLEX_TOKEN");
    this.where = this.root;
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.fetchFn = options.fetch ?? fetch;
  }

  /** `path` includes its query; `action` completes "when asked to …" in error messages. */
  async request(method: "GET" | "PUT", path: string, action: string): Promise<PlexAnswer> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (this.token !== "") headers["X-Plex-Token"] = this.token;
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      // A redirect would carry the token header to wherever it points: refuse to follow.
      const response = await this.fetchFn(this.root + path, { method, headers, signal, redirect: "manual" });
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

  /** Runs `parse`; an unreadable answer (a proxy's login page, a half-started server) is worth a retry. */
  parsed<T>(parse: () => T, action: string): T {
    try {
      return parse();
    } catch (error) {
      const reason = messageOf(error);
      throw this.redacted(new TargetUnavailableError(`Plex at ${this.where} gave an unreadable answer when asked to ${action}: ${reason}`));
    }
  }

  /** Belt and braces: no message leaves this class with the token in it. */
  private redacted(error: Error): Error {
    return redactSecrets(error, [this.token]);
  }
}
