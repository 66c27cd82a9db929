/**
 * How the scheduler delivers and retries. Defaults, and why:
 *
 * - concurrencyPerTarget 2 (serve passes SERVER_DELIVERY_CONCURRENCY, 4 by
 *   default): Plex queues refreshes itself, so more parallel requests only
 *   add load; a few hide a slow answer and let a backlog drain at the
 *   target's pace. (The scanner target serialises runs by itself.)
 * - backoff for TargetUnavailableError (down, 404, 5xx, timeout): attempt n
 *   waits min(maxMs, baseMs × factor^(n-1)) = 5 s, 10 s, 20 s … capped at
 *   10 min, then "equal jitter": a random point in the upper half of that
 *   wait, so a fleet of scans does not retry in lockstep. A target that fails
 *   is held by the same steps, counted per failed round (calls in flight
 *   together count once), and probed once per step.
 * - quickProbeMs 15 s for the first quickProbeForMs 10 min of an outage: the
 *   probe interval never exceeds 15 s then, so a short outage (a restart, a
 *   hang) is noticed within 15 s of the server's return; a longer one falls
 *   back to the backoff's cap, so a night-long outage costs few requests.
 * - authRetryMs 15 min: a refused token (401/403) needs a human; retrying
 *   faster would only fill the Plex log.
 * - leaseRenewMs 30 s: claims in flight are renewed this often (their lease
 *   is the queue's, 2 min by default), and claims whose lease ran out are
 *   looked for this often.
 * - maxAgeMs 24 h: a scan still undelivered a day after its first request is
 *   marked failed (it stays in listFailed()); a day covers a night-long outage.
 */
export interface DeliveryPolicy {
  concurrencyPerTarget: number;
  backoff: BackoffPolicy;
  authRetryMs: number;
  maxAgeMs: number;
  leaseRenewMs: number;
  quickProbeMs: number;
  quickProbeForMs: number;
}

export interface BackoffPolicy {
  baseMs: number;
  factor: number;
  maxMs: number;
}

export const DEFAULT_POLICY: DeliveryPolicy = {
  concurrencyPerTarget: 2,
  backoff: { baseMs: 5_000, factor: 2, maxMs: 10 * 60_000 },
  authRetryMs: 15 * 60_000,
  maxAgeMs: 24 * 60 * 60_000,
  leaseRenewMs: 30_000,
  quickProbeMs: 15_000,
  quickProbeForMs: 10 * 60_000,
};

export function resolvePolicy(overrides: Partial<DeliveryPolicy> = {}): DeliveryPolicy {
  return { ...DEFAULT_POLICY, ...overrides, backoff: { ...DEFAULT_POLICY.backoff, ...overrides.backoff } };
}
