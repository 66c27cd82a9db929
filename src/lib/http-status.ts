/**
 * What an HTTP status says about trying again, for every outside service
 * scanarr calls (media servers, Google, rclone, webhooks). Each caller adds
 * only what is its own (a media server's 404, Google's rate-limit reasons).
 */

/** 408, 429, 5xx: the receiver is busy, starting or failing; the same request may succeed later. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** 401, 403: the credential is wrong or lacks the rights; a person has to fix it. */
export function isAuthStatus(status: number): boolean {
  return status === 401 || status === 403;
}

/** Our own time-out (AbortSignal.timeout) or an abort ended the request. */
export function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/**
 * Why a request got no HTTP answer, in a word or a phrase: undici hides the
 * useful part (ECONNREFUSED, ENOTFOUND) in `cause`, as a code or a message.
 */
export function describeFetchCause(error: unknown): string {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  if (typeof cause === "object" && cause !== null) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const message = (cause as { message?: unknown }).message;
    if (typeof message === "string" && message !== "") return message;
  }
  return String(cause);
}
