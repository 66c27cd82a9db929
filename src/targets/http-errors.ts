import { TargetAuthError, TargetFatalError, TargetUnavailableError } from "../domain.js";

/** How a server is named in messages: "Jellyfin \"jf\" at http://host:8096". */
export interface ServerLabel {
  /** "Jellyfin", "Emby", "autoscan". */
  kind: string;
  /** The URL without credentials or query. */
  where: string;
  /** Which config key holds the credential, for the hint on 401/403: "TARGETS[1].TOKEN". */
  credential: string;
}

/**
 * The one place where a media server's HTTP status becomes a domain error,
 * for every target but Plex (which has its own wording in plex/errors.ts).
 * 401/403: the credential is wrong or lacks rights, stop and say so.
 * 404, 408, 429, 5xx: down, starting, behind a proxy that lost it: retry.
 * Anything else (400, 405, 3xx, ...) will fail the same way every time.
 */
export function errorForStatus(status: number, action: string, server: ServerLabel): Error | undefined {
  if (status >= 200 && status < 300) return undefined;
  const said = `${server.kind} at ${server.where} answered ${status} when asked to ${action}`;
  if (status === 401) return new TargetAuthError(`${said}: the credential was refused; check ${server.credential}`);
  if (status === 403) return new TargetAuthError(`${said}: the credential lacks the rights; check ${server.credential}`);
  if (status === 404 || status === 408 || status === 429 || status >= 500) return new TargetUnavailableError(said);
  // Following a redirect would hand the credential to another host; the user should point at the target instead.
  const hint = status >= 300 && status < 400 ? " (a redirect: set the URL to the address it points to)" : "";
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
  return new NoAnswerError(`${at} is unreachable (${describeCause(error)}) when asked to ${action}`);
}

export function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** undici hides the useful part (ECONNREFUSED, ENOTFOUND) in `cause`. */
export function describeCause(error: unknown): string {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  if (typeof cause === "object" && cause !== null) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const message = (cause as { message?: unknown }).message;
    if (typeof message === "string" && message !== "") return message;
  }
  return String(cause);
}

export function isTargetError(error: unknown): error is Error {
  return error instanceof TargetAuthError || error instanceof TargetUnavailableError || error instanceof TargetFatalError;
}

/** Belt and braces: replaces every secret in the message before the error leaves a client. */
export function redactSecrets(error: Error, secrets: readonly string[]): Error {
  for (const secret of secrets) {
    if (secret.length >= 4 && error.message.includes(secret)) error.message = error.message.split(secret).join("[redacted]");
  }
  return error;
}
