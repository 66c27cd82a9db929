import { HttpError, RETRY_AFTER_SECONDS } from "../http-error.js";

/**
 * How the /triggers routes answer a refusal. autoscan's target client (an
 * autoscan forwarding to scanarr) takes any answer but 2xx, 401, 404 and 5xx
 * as fatal: its processor stops until it is restarted. A refusal that passes
 * with time, too many failed logins (429) or a database that cannot write
 * (507), is therefore 503 with `Retry-After`, which it retries; every other
 * answer is left as it is (docs/compat.md lists them).
 */
export function autoscanRefusal(error: HttpError): HttpError {
  if (error.status !== 429 && error.status !== 507) return error;
  // Both carry their own Retry-After; the default only keeps the promise that a 503 here always has one.
  return new HttpError(503, error.message, error.details, { "retry-after": RETRY_AFTER_SECONDS, ...error.headers });
}
