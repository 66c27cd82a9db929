import { TargetAuthError, TargetFatalError, TargetUnavailableError } from "../domain.js";
import { describeFetchCause, isAuthStatus, isRetryableStatus, isTimeout } from "../lib/http-status.js";
import { createSecretMasker } from "../lib/mask.js";

/** How a server is named in messages: "Jellyfin at http://host:8096", and what to check when it refuses us. */
export interface ServerLabel {
  /** "Plex", "Jellyfin", "Emby", "autoscan". */
  kind: string;
  /** The URL without credentials or query. */
  where: string;
  /** Which config key holds the credential, for the hint on 401/403: "TARGETS[1].TOKEN". */
  credential: string;
  /** Which config key holds the URL, for the hint on a redirect: "PLEX_LOCAL_URL". */
  urlKey?: string;
  /** A server kind's own wording; the status table decides the error class whatever the wording. */
  hints?: StatusHints;
}

/** Wording a server kind adds to the status table (Plex's admin token); never a different reaction. */
export interface StatusHints {
  /** What the credential is called in "refused the … (401)"; "credential" by default. */
  credentialNoun?: string;
  /** Why a 403 happens with this server and what to do. */
  forbidden?: string;
}

/**
 * The one place where a media server's HTTP status becomes a domain error.
 * 401/403: the credential is wrong or lacks rights, stop and say so.
 * 404 (a removed section, a server starting behind a proxy), 408, 429, 5xx: retry.
 * Anything else (400, 405, 3xx, ...) will fail the same way every time.
 */
export function errorForStatus(status: number, action: string, server: ServerLabel): Error | undefined {
  if (status >= 200 && status < 300) return undefined;
  const at = `${server.kind} at ${server.where}`;
  const said = `${at} answered ${status} when asked to ${action}`;
  if (isAuthStatus(status)) {
    if (status === 403) {
      const why = server.hints?.forbidden ?? `the credential lacks the rights; check ${server.credential}`;
      return new TargetAuthError(`${said}: ${why}`);
    }
    const noun = server.hints?.credentialNoun ?? "credential";
    return new TargetAuthError(`${at} refused the ${noun} (401) when asked to ${action}; check ${server.credential}`);
  }
  if (status === 404 || isRetryableStatus(status)) return new TargetUnavailableError(said);
  // Following a redirect would hand the credential to another host; the user should point at the target instead.
  const hint = status >= 300 && status < 400 ? ` (a redirect: set ${server.urlKey ?? "the URL"} to the address it points to)` : "";
  return new TargetFatalError(`${said}${hint}`);
}

/**
 * The server gave no HTTP answer at all (refused, reset, DNS, our own
 * time-out). Still a TargetUnavailableError; the subclass tells a target
 * that trying another endpoint of the same server now would only fail again.
 */
export class NoAnswerError extends TargetUnavailableError {}

/** A request that got no HTTP answer at all: refused, reset, DNS, or our own time-out. */
export function errorForFailure(error: unknown, action: string, server: ServerLabel, timeoutMs: number): Error {
  const at = `${server.kind} at ${server.where}`;
  if (isTimeout(error)) return new NoAnswerError(`${at} did not answer within ${timeoutMs} ms when asked to ${action}`);
  return new NoAnswerError(`${at} is unreachable (${describeFetchCause(error)}) when asked to ${action}`);
}

export function isTargetError(error: unknown): error is Error {
  return error instanceof TargetAuthError || error instanceof TargetUnavailableError || error instanceof TargetFatalError;
}

/** Belt and braces: replaces every secret in the message before the error leaves a client. */
export function redactSecrets(error: Error, secrets: readonly string[]): Error {
  error.message = createSecretMasker(secrets, "[redacted]")(error.message);
  return error;
}
