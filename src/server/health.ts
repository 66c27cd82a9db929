import type { Contact } from "../domain.js";

/** One target as /health judges it. */
export interface TargetHealthFact {
  name: string;
  /** The target's last real exchange (ContactRecorder); absent for targets that do not record one. */
  contact?: Contact;
  /** The delivery scheduler's view; it starts "ok" before any contact, so it alone proves nothing. */
  delivery?: { state: "ok" | "unavailable" | "misconfigured"; failures: number };
}

/** Secret-free facts the service gathers for each /health call. */
export interface HealthFacts {
  targets: readonly TargetHealthFact[];
  /** `pending`: scans not yet handed to every target (pendingOf); `counts`: scans per shown state. */
  queue: { pending: number; failed: number; counts?: Record<string, number> };
  drive?: {
    enabled: boolean;
    /** False when monitoring could not start (no token, no client id). */
    running: boolean;
    /** The last finished poll; absent before the first one ends. */
    lastPoll?: { ok: boolean };
  };
  /** The ANCHORS files or folders that must exist before scanning, as last checked. */
  anchors?: ReadonlyArray<{ path: string; present: boolean }>;
  /** When the anchors were last looked at (epoch ms); absent before the first check. */
  anchorsCheckedAt?: number;
  /** More reasons to answer "degraded" from checks added later (rclone RC, ...); no secrets. */
  problems?: readonly string[];
  /** Secret-free facts shown as they are (the watchers' state). */
  details?: Record<string, unknown>;
}

export type TargetState = "ok" | "unknown" | "unavailable" | "refused";

/** What GET /health answers (and the dashboard's header shows); `details` are merged in as they are. */
export interface HealthBody {
  status: "ok" | "degraded";
  reasons?: string[];
  pending: number;
  failed: number;
  targets: Record<string, { state: TargetState; failures?: number }>;
  anchors?: { ok: boolean; missing: string[]; checkedAt: string | null };
  drive?: { enabled: boolean; running: boolean; lastPollOk?: boolean };
  [detail: string]: unknown;
}

export interface HealthVerdict {
  httpStatus: 200 | 503;
  body: HealthBody;
}

/**
 * 200 "ok" only when every target has answered and accepted its credentials,
 * the drive monitor (when on) runs and polls, and every anchor is present;
 * otherwise 503 "degraded" with the reasons. Reasons name no URL, token or
 * pass: /health answers without the pass.
 */
export function evaluateHealth(facts: HealthFacts): HealthVerdict {
  const reasons: string[] = [];
  const targets: Record<string, { state: TargetState; failures?: number }> = {};
  if (facts.targets.length === 0) reasons.push("no target is configured");
  for (const target of facts.targets) {
    const state = targetState(target);
    targets[target.name] = { state, ...(target.delivery ? { failures: target.delivery.failures } : {}) };
    if (state !== "ok") reasons.push(describeTarget(target.name, state));
  }
  const drive = facts.drive;
  if (drive?.enabled && !drive.running) reasons.push("drive monitoring is not running (see the log; `scanarr doctor` checks the token)");
  if (drive?.enabled && drive.running && drive.lastPoll?.ok === false) reasons.push("the last drive poll failed");
  for (const anchor of facts.anchors ?? []) if (!anchor.present) reasons.push(`anchor ${anchor.path} is missing`);
  reasons.push(...(facts.problems ?? []));
  const ok = reasons.length === 0;
  const body: HealthBody = {
    status: ok ? "ok" : "degraded",
    ...(ok ? {} : { reasons }),
    pending: facts.queue.pending,
    failed: facts.queue.failed,
    ...(facts.queue.counts ? { counts: facts.queue.counts } : {}),
    targets,
  };
  Object.assign(body, facts.details);
  const anchors = facts.anchors ?? [];
  if (anchors.length > 0) {
    body.anchors = {
      ok: anchors.every((a) => a.present),
      missing: anchors.filter((a) => !a.present).map((a) => a.path),
      checkedAt: facts.anchorsCheckedAt === undefined ? null : new Date(facts.anchorsCheckedAt).toISOString(),
    };
  }
  if (drive) body.drive = { enabled: drive.enabled, running: drive.running, ...(drive.lastPoll ? { lastPollOk: drive.lastPoll.ok } : {}) };
  return { httpStatus: ok ? 200 : 503, body };
}

/** A refusal on delivery outranks an older good contact; an outage seen by either side counts. */
function targetState(target: TargetHealthFact): TargetState {
  const delivery = target.delivery?.state;
  if (delivery === "misconfigured") return "refused";
  const contact = target.contact?.state ?? (target.delivery ? "ok" : "unknown");
  if (contact === "ok" && delivery === "unavailable") return "unavailable";
  return contact;
}

function describeTarget(name: string, state: TargetState): string {
  if (state === "unknown") return `target ${name} has not answered yet`;
  if (state === "refused") return `target ${name} refuses the credentials (check its token)`;
  return `target ${name} is unreachable`;
}
