import { httpFetch, type HttpFetchResponse } from "../lib/http-fetch.js";
import { describeFetchCause, isRetryableStatus } from "../lib/http-status.js";

/** How one attempt to post a message went. */
export type SendResult =
  | { kind: "sent" }
  /** Worth trying again: a network error, a time-out, 408, 429 or 5xx; `afterMs` when the receiver said when (Retry-After). */
  | { kind: "retry"; reason: string; afterMs?: number }
  /** Trying again would not help (400, 401, 403, 404: a deleted webhook, a bad body). */
  | { kind: "drop"; reason: string };

export interface SendOptions {
  timeoutMs: number;
  signal: AbortSignal;
  /** Clock time, to read a Retry-After given as a date. */
  now: number;
}

/**
 * Posts `body` as JSON. The reasons never hold the URL: a Discord webhook
 * URL carries its token in the path.
 */
export async function postMessage(url: string, body: unknown, options: SendOptions): Promise<SendResult> {
  let res: HttpFetchResponse;
  try {
    res = await httpFetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "scanarr" },
      body: JSON.stringify(body),
      signal: AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]),
    });
  } catch (error) {
    // Only our time-out: an abort of options.signal is the service stopping, not the receiver being slow.
    const timedOut = error instanceof Error && error.name === "TimeoutError";
    const reason = timedOut ? `no answer within ${options.timeoutMs / 1000} s` : `network error: ${describeFetchCause(error)}`;
    return { kind: "retry", reason };
  }
  const text = await res.text().catch(() => "");
  if (res.ok) return { kind: "sent" };
  const reason = `HTTP ${res.status}`;
  // Unlike a media server, a webhook answering 404 was deleted: trying again would not help.
  if (isRetryableStatus(res.status)) {
    const afterMs = retryAfterMs(res.headers.get("retry-after"), text, options.now);
    return afterMs === undefined ? { kind: "retry", reason } : { kind: "retry", reason, afterMs };
  }
  return { kind: "drop", reason };
}

/**
 * Retry-After in seconds (Discord sends fractions) or as an HTTP date; else
 * Discord's `retry_after` (seconds) in a JSON body.
 */
export function retryAfterMs(header: string | null, body: string, now: number): number | undefined {
  if (header !== null && header.trim() !== "") {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  try {
    const parsed = JSON.parse(body) as { retry_after?: unknown };
    if (typeof parsed.retry_after === "number" && parsed.retry_after >= 0) return Math.ceil(parsed.retry_after * 1000);
  } catch {
    // Not JSON: no hint.
  }
  return undefined;
}
