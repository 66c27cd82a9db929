import { TargetAuthError, TargetFatalError, TargetUnavailableError } from "../../domain.js";
import { errorForFailure as errorForNoAnswer } from "../http-errors.js";

/**
 * The one place where Plex's answers become domain errors (apis.md §1.4).
 * 401/403 mean the token is wrong or not an admin's: stop and say so.
 * 404 (stale section), 5xx, network failures and timeouts are worth retrying.
 * Anything else (400, 405, ...) will fail the same way every time.
 */
export function errorForStatus(status: number, action: string, where: string): Error | undefined {
  if (status >= 200 && status < 300) return undefined;
  if (status === 401) {
    return new TargetAuthError(`Plex at ${where} refused the token (401) when asked to ${action}; check PLEX_TOKEN`);
  }
  if (status === 403) {
    return new TargetAuthError(
      `Plex at ${where} answered 403 when asked to ${action}; PLEX_TOKEN must belong to the server's admin account`,
    );
  }
  if (status === 404 || status === 408 || status === 429 || status >= 500) {
    return new TargetUnavailableError(`Plex at ${where} answered ${status} when asked to ${action}`);
  }
  // Following a redirect would hand the token to another host; the user should point at the target instead.
  const hint = status >= 300 && status < 400 ? " (a redirect: set PLEX_LOCAL_URL to the address it points to)" : "";
  return new TargetFatalError(`Plex at ${where} answered ${status} when asked to ${action}${hint}`);
}

/** A request that got no HTTP answer at all: refused, reset, DNS, or our own timeout. */
export function errorForFailure(error: unknown, action: string, where: string, timeoutMs: number): Error {
  return errorForNoAnswer(error, action, { kind: "Plex", where, credential: "PLEX_TOKEN" }, timeoutMs);
}
