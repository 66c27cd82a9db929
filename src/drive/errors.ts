import { AUTHORIZE_AGAIN, invalidGrantAdvice } from "../auth/errors.js";
import { isRetryableStatus } from "../lib/http-status.js";
import { messageOf } from "../lib/errors.js";

/**
 * Drive API failures, classified once here by how the poller reacts:
 * retry with backoff, or give up until the next poll.
 */

const RATE_LIMIT_REASONS = new Set(["userRateLimitExceeded", "rateLimitExceeded"]);

export type DriveErrorKind = "rate-limited" | "unavailable" | "auth" | "not-found" | "fatal";

export class DriveApiError extends Error {
  override name = "DriveApiError";
  constructor(
    message: string,
    readonly kind: DriveErrorKind,
    readonly status: number | undefined,
    readonly reason: string | undefined,
  ) {
    super(message);
  }

  /** Rate limits, 5xx and network failures are worth another try. */
  get retryable(): boolean {
    return this.kind === "rate-limited" || this.kind === "unavailable";
  }
}

/** Turns whatever the client threw (GaxiosError, network error) into a DriveApiError. */
export function toDriveApiError(error: unknown, what: string, authorizeAgain: string = AUTHORIZE_AGAIN): DriveApiError {
  if (error instanceof DriveApiError) return error;
  const status = readStatus(error);
  const reason = readReason(error);
  const detail = `${what} failed: ${status ?? "no response"}${reason ? ` ${reason}` : ""}`;
  // The client refreshes the access token on its own: a refused refresh token surfaces here, days after authorize.
  if (field(field(field(error, "response"), "data"), "error") === "invalid_grant") {
    const why = `Google no longer accepts the stored refresh token (invalid_grant): ${authorizeAgain}`;
    return new DriveApiError(`${detail}: ${why}. ${invalidGrantAdvice(authorizeAgain)}`, "auth", status, "invalid_grant");
  }
  if (status === undefined) {
    const message = messageOf(error);
    return new DriveApiError(`${detail} (${message})`, "unavailable", undefined, undefined);
  }
  if (status === 429 || (status === 403 && reason !== undefined && RATE_LIMIT_REASONS.has(reason))) {
    return new DriveApiError(detail, "rate-limited", status, reason);
  }
  if (isRetryableStatus(status)) return new DriveApiError(detail, "unavailable", status, reason);
  if (status === 401) return new DriveApiError(`${detail}: the Drive credentials were refused; ${authorizeAgain}`, "auth", status, reason);
  if (status === 404) return new DriveApiError(detail, "not-found", status, reason);
  return new DriveApiError(detail, "fatal", status, reason);
}

function readStatus(error: unknown): number | undefined {
  const response = field(error, "response");
  const status = field(response, "status") ?? field(error, "status");
  return typeof status === "number" ? status : undefined;
}

function readReason(error: unknown): string | undefined {
  const body = field(field(error, "response"), "data");
  const errors = field(field(body, "error"), "errors");
  const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
  const reason = field(first, "reason");
  return typeof reason === "string" ? reason : undefined;
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}
