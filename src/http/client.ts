import { TargetUnavailableError } from "../domain.js";
import { errorForFailure, errorForStatus, isTargetError, redactSecrets, type ServerLabel } from "./errors.js";
import { messageOf } from "../lib/errors.js";
import { httpFetch, type HttpFetch } from "../lib/http-fetch.js";

/** 30 s: a media server that has not answered by then is treated as down, so it never holds a delivery slot. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface HttpClientOptions {
  label: ServerLabel;
  /** Base URL without a trailing slash; paths are appended to it. */
  root: string;
  /** Sent with every request (the credential travels here, never in the URL). */
  headers: Record<string, string>;
  /** Values that must never appear in an error message (tokens, passwords, encoded forms). */
  secrets: readonly string[];
  /** Per request, body included. Defaults to 30 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Sent as `application/json`. */
  json?: unknown;
  /** Statuses handed back as answers instead of errors (feature detection). */
  pass?: readonly number[];
}

export interface HttpAnswer {
  status: number;
  text: string;
  /** The Content-Type header ("" when absent): Plex answers XML when a proxy drops our Accept header. */
  type: string;
}

/**
 * The one outgoing client for JSON APIs (the media servers, Tdarr, the *arr
 * apps, plex.tv): one request with a time-out,
 * no redirects followed (they would carry the credential elsewhere), status
 * and transport failures turned into domain errors in one place, and no
 * secret in any message.
 */
export class HttpClient {
  readonly where: string;
  readonly timeoutMs: number;
  private readonly options: HttpClientOptions;
  private readonly fetchFn: HttpFetch;

  constructor(options: HttpClientOptions) {
    this.options = options;
    this.where = options.label.where;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.fetchFn = options.fetch ?? httpFetch;
  }

  /** `method path`; resolves with the answer on 2xx (or a `pass` status), throws a Target*Error otherwise. */
  async call(method: string, path: string, action: string, options: CallOptions = {}): Promise<HttpAnswer> {
    const headers: Record<string, string> = { Accept: "application/json", ...this.options.headers };
    let body: string | undefined;
    if (options.json !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(options.json);
    }
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      const response = await this.fetchFn(this.options.root + path, { method, headers, body, signal, redirect: "manual" });
      const type = response.headers.get("content-type") ?? "";
      if (options.pass?.includes(response.status)) return { status: response.status, text: await response.text(), type };
      const failure = errorForStatus(response.status, action, this.options.label);
      if (failure) {
        await response.body?.cancel().catch(() => undefined);
        throw failure;
      }
      return { status: response.status, text: await response.text(), type };
    } catch (error) {
      throw this.redacted(isTargetError(error) ? error : errorForFailure(error, action, this.options.label, this.timeoutMs));
    }
  }

  /**
   * The answer's JSON read by `read`, which throws on a shape it does not
   * know. A body that is not JSON or not that shape (a proxy's login page, a
   * half-started server) is worth a retry.
   */
  readJson<T>(answer: HttpAnswer, action: string, read: (data: unknown) => T): T {
    return this.parsed(() => read(JSON.parse(answer.text) as unknown), action);
  }

  /** Runs `parse`; an answer it cannot read (a proxy's login page, a half-started server) is worth a retry. */
  parsed<T>(parse: () => T, action: string): T {
    try {
      return parse();
    } catch (error) {
      const reason = error instanceof SyntaxError ? "the body is not JSON" : messageOf(error);
      throw this.unavailable(`gave an unreadable answer when asked to ${action}: ${reason}`);
    }
  }

  /** A TargetUnavailableError naming the server: "Jellyfin at http://… <what>". */
  unavailable(what: string): Error {
    const { kind, where } = this.options.label;
    return this.redacted(new TargetUnavailableError(`${kind} at ${where} ${what}`));
  }

  redacted(error: Error): Error {
    return redactSecrets(error, this.options.secrets);
  }
}

/** Plain-object check for parsed JSON. */
export function isFields(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
