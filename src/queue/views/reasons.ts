import { heldTargets, type Hold, type ScanState } from "../shown-state.js";
import type { DeliveryView, RequestOrigin, ScanFileView, ScanReason } from "../types.js";

/** What a reason is built from: the scan as the queue shows it, its requests' origins, and the holds. */
export interface ReasonInput {
  state: ScanState;
  requests: number;
  dueAt: number;
  finishedAt: number | null;
  fileChecks: number;
  nextFileCheckAt: number | null;
  files: readonly ScanFileView[];
  deliveries: readonly DeliveryView[];
  detail: string | null;
  /** The requests' paths as their sources named them, with the mapping that rewrote each (may be a few of them only). */
  origins: readonly RequestOrigin[];
}

/**
 * Why a scan waits, or why it ended the way it did, in words with the fact
 * behind it: the one place the API, the pages and `scanarr status` get their
 * reasons from (each built from stored facts only). Null for a scan that
 * needs none (done).
 */
export function reasonFor(scan: ReasonInput, holds: readonly Hold[], now: number): ScanReason | null {
  const at = (code: ScanReason["code"], text: string, when: number | null): ScanReason => ({ code, text, at: when });
  switch (scan.state) {
    case "debouncing":
      return at(
        "debouncing",
        `debouncing until ${clockTime(scan.dueAt, now)}: requests for the folder are merged until then (${plural(scan.requests, "request")} so far)`,
        scan.dueAt,
      );
    case "waiting-for-files":
      return waitingForFiles(scan, now);
    case "held":
      return held(scan, holds, now);
    case "retrying":
      return retrying(scan, now);
    case "queued": {
      const targets = scan.deliveries.filter((d) => d.state === "pending").map((d) => d.target);
      return at(
        "queued",
        `due since ${clockTime(scan.dueAt, now)}; waiting its turn for ${targets.join(", ") || "its targets"}`,
        scan.dueAt,
      );
    }
    case "delivering": {
      const targets = scan.deliveries.filter((d) => d.state === "delivering").map((d) => d.target);
      return at("delivering", `being sent to ${targets.join(", ")}`, null);
    }
    case "confirming": {
      const d = scan.deliveries.find((x) => x.state === "confirming");
      return at("confirming", `${d?.target ?? "the target"} accepted it; ${d?.detail ?? "waiting for confirmation"}`, d?.updatedAt ?? null);
    }
    case "failed":
      return at("failed", ended(scan, ["failed", "skipped"]) || scan.detail || "failed", scan.finishedAt);
    case "unconfirmed":
      return at("unconfirmed", ended(scan, ["unconfirmed"]) || "not confirmed", scan.finishedAt);
    case "cancelled":
      return at("cancelled", `cancelled from the dashboard at ${clockTime(scan.finishedAt ?? now, now)}`, scan.finishedAt);
    case "done":
      return null;
  }
}

function waitingForFiles(scan: ReasonInput, now: number): ScanReason {
  const unseen = scan.files.filter((f) => !f.deleted && !f.seen);
  const first = unseen[0];
  const more = unseen.length > 1 ? ` and ${unseen.length - 1} more` : "";
  const next = scan.nextFileCheckAt === null ? "" : `, next look at ${clockTime(scan.nextFileCheckAt, now)}`;
  const checked = `checked ${plural(scan.fileChecks, "time")}${next}`;
  const origin = first && scan.origins.find((o) => o.mapped === first.path);
  // A file that never appears is where a wrong mapping shows: say which one to check.
  const rewritten = origin?.mappingKey != null && origin.path !== origin.mapped;
  const from = origin ? `; ${mappedFrom(origin)}${rewritten ? "; if the file is elsewhere on this machine, fix that mapping" : ""}` : "";
  const text = `waiting for \`${first?.path ?? "its files"}\`${more} to appear (${checked}${from})`;
  return { code: "waiting-for-files", text, at: scan.nextFileCheckAt };
}

/** Where a path came from: the SERVER_PATH_MAPPINGS entry that rewrote it, stated as a fact. */
export function mappedFrom(origin: RequestOrigin): string {
  if (origin.mappingKey === null || origin.mappingPrefix === null)
    return `named as \`${origin.path}\`; no SERVER_PATH_MAPPINGS entry rewrote it`;
  if (origin.path === origin.mapped) return `named as \`${origin.path}\`, already the media server's path`;
  return `mapped from \`${origin.path}\` by SERVER_PATH_MAPPINGS (\`${origin.mappingPrefix}\` → \`${origin.mappingKey}\`)`;
}

function held(scan: ReasonInput, holds: readonly Hold[], now: number): ScanReason {
  const anchors = holds.filter((h) => h.kind === "anchor");
  if (anchors.length > 0) {
    const first = anchors[0] as Hold;
    const list = anchors.map((a) => `\`${a.subject}\``).join(", ");
    return {
      code: "anchor-missing",
      text: `held: anchor ${list} missing since ${clockTime(first.since, now)}`,
      at: first.since,
    };
  }
  const targets = heldTargets(holds);
  const pending = scan.deliveries.filter((d) => d.state === "pending" && targets.has(d.target)).map((d) => d.target);
  const hold = holds.find((h) => h.kind !== "anchor" && pending.includes(h.subject)) ?? holds.find((h) => h.kind !== "anchor");
  if (!hold) return { code: "target-down", text: "held", at: null };
  const why = hold.detail ? ` (${hold.detail})` : "";
  if (hold.kind === "token-refused")
    return {
      code: "token-refused",
      text: `held: ${hold.subject} refused the token at ${clockTime(hold.since, now)}${why}`,
      at: hold.since,
    };
  return { code: "target-down", text: `held: ${hold.subject} is unreachable since ${clockTime(hold.since, now)}${why}`, at: hold.since };
}

function retrying(scan: ReasonInput, now: number): ScanReason {
  const tried = scan.deliveries.filter((d) => d.state === "pending" && d.attempts > 0);
  const next = Math.min(...tried.map((d) => d.dueAt));
  const parts = tried.map(
    (d) => `${d.target} at ${clockTime(d.dueAt, now)} after ${plural(d.attempts, "attempt")}${d.lastError ? `: ${d.lastError}` : ""}`,
  );
  return { code: "retrying", text: `retrying ${parts.join("; ")}`, at: Number.isFinite(next) ? next : null };
}

/** The deliveries that ended in `states`, each with its error. */
function ended(scan: ReasonInput, states: readonly string[]): string {
  return scan.deliveries
    .filter((d) => states.includes(d.state))
    .map((d) => (d.state === "skipped" ? (d.lastError ?? `${d.target}: skipped`) : `${d.target}: ${d.lastError ?? d.state}`))
    .join("; ");
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** "12:03:04" the same day, "2026-11-25 12:03" otherwise (the service's local time). */
export function clockTime(at: number, now: number): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, "0");
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  if (new Date(now).toDateString() === d.toDateString()) return time;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time.slice(0, 5)}`;
}
