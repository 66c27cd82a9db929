/** A key that holds a time in epoch milliseconds: `dueAt`, `firstRequestedAt`, `since`, a reason's `at`… */
const TIME_KEY = /(?:At|^at|^since|Since)$/;

/**
 * `value` with an ISO 8601 twin beside every time it holds, at any depth:
 * `dueAt: 1795…` gains `dueAtIso: "2026-…Z"` (null beside null). The epoch
 * numbers stay, for scripts that read them. Used for every JSON answer that
 * carries times (the queue and history APIs, `scanarr status --json`).
 */
export function withIsoTwins<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withIsoTwins) as T;
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] = withIsoTwins(field);
    if (TIME_KEY.test(key) && (typeof field === "number" || field === null) && !(`${key}Iso` in value)) {
      out[`${key}Iso`] = typeof field === "number" && Number.isFinite(field) ? new Date(field).toISOString() : null;
    }
  }
  return out as T;
}
