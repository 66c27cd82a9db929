import { UserError } from "../domain.js";
import { isRetryableStatus } from "../lib/http-status.js";
import { messageOf } from "../lib/errors.js";

/**
 * What the user should do when Google answers `invalid_grant`. Shared by
 * `authorize` and the monitor, because a refresh token that dies after a week
 * is the most common surprise of a self-made OAuth client.
 */
export function invalidGrantAdvice(authorizeAgain = AUTHORIZE_AGAIN): string {
  return (
    'If this happens about a week after authorizing, the OAuth app is in "Testing" mode, ' +
    "where Google expires refresh tokens after 7 days: in the Google Cloud console open " +
    'APIs & Services > OAuth consent screen, click "Publish app" so the status reads ' +
    `"In production", then ${authorizeAgain}.`
  );
}

/** How a refused token is renewed: `scanarr authorize`, or (CLOUD.RCLONE_REMOTE) reconnecting the rclone remote. */
export const AUTHORIZE_AGAIN = "run `scanarr authorize` again";

export const INVALID_GRANT_ADVICE = invalidGrantAdvice();

/** The same advice for an rclone remote's own client. */
export function reconnectRemote(remote: string): string {
  return `run \`rclone config reconnect ${remote}:\`, then restart scanarr`;
}

/** How a failed call to Google (token endpoint or Drive API) should be explained. */
export type GoogleFailure =
  | { kind: "invalid_grant"; detail: string }
  | { kind: "denied"; status: number; detail: string }
  | { kind: "server"; status: number; detail: string }
  | { kind: "unreachable"; detail: string };

/**
 * Sorts an error thrown by fetch or by the Google client library (a
 * GaxiosError, narrowed by shape so no second copy of gaxios is imported).
 */
export function classifyGoogleError(error: unknown): GoogleFailure {
  const response = readField(error, "response");
  const status = Number(readField(response, "status") ?? 0);
  const data = readField(response, "data");
  const code = readField(data, "error");
  const description = readField(data, "error_description");
  if (code === "invalid_grant" || (error instanceof Error && error.message.startsWith("invalid_grant"))) {
    return { kind: "invalid_grant", detail: typeof description === "string" ? description : "invalid_grant" };
  }
  // Busy or failing (408, 429, 5xx): the same request may succeed in a few minutes.
  if (isRetryableStatus(status)) return { kind: "server", status, detail: `HTTP ${status}` };
  if (status >= 400) return { kind: "denied", status, detail: describeDenial(code, description, status) };
  const cause = readField(error, "cause");
  const sysCode = readField(cause, "code") ?? readField(error, "code");
  const message = messageOf(error);
  return { kind: "unreachable", detail: typeof sysCode === "string" ? sysCode : message };
}

/**
 * One clear UserError for a failure while talking to `where` (a URL).
 * `during` says which grant was refused: a fresh authorization code (single
 * use, minutes to live) or the stored refresh token, which is where Testing
 * apps fail a week later, so only that one gets the 7-day advice.
 */
export function explainGoogleFailure(failure: GoogleFailure, where: string, during: "exchange" | "refresh" = "exchange"): UserError {
  switch (failure.kind) {
    case "invalid_grant":
      if (during === "refresh") {
        return new UserError(
          `Google no longer accepts the stored refresh token (invalid_grant: ${failure.detail}): run \`scanarr authorize\` again. ` +
            INVALID_GRANT_ADVICE,
        );
      }
      return new UserError(
        `Google refused the authorization code (invalid_grant: ${failure.detail}). A code is single-use and expires ` +
          "within minutes: run `scanarr authorize` again and paste the new address right away.",
      );
    case "denied":
      return new UserError(`${where} refused the request (${failure.detail}).`);
    case "server":
      return new UserError(`${where} failed (${failure.detail}); try again in a few minutes.`);
    case "unreachable":
      return new UserError(`Cannot reach ${where} (${failure.detail}); check the network and CLOUD.TOKEN_URL / CLOUD.API_URL.`);
  }
}

function describeDenial(code: unknown, description: unknown, status: number): string {
  if (typeof code === "string") return typeof description === "string" ? `${code}: ${description}` : code;
  const message = readField(code, "message");
  return typeof message === "string" ? `HTTP ${status}: ${message}` : `HTTP ${status}`;
}

function readField(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  return (value as Record<string, unknown>)[key];
}
