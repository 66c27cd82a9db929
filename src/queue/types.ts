import type { DeliveryState } from "./lifecycle.js";
import type { ScanAction, ScanState } from "./shown-state.js";

export type { DeliveryState } from "./lifecycle.js";
export type { ScanAction, ScanState } from "./shown-state.js";

/** Why a scan waits or how it ended (src/queue/views/reasons.ts builds it). */
export interface ScanReason {
  /** What kind of wait or end, for scripts. */
  code:
    | "debouncing"
    | "waiting-for-files"
    | "anchor-missing"
    | "target-down"
    | "token-refused"
    | "queued"
    | "retrying"
    | "delivering"
    | "confirming"
    | "failed"
    | "unconfirmed"
    | "cancelled";
  /** In words, with the fact behind it. */
  text: string;
  /** Epoch ms of that fact (until when, since when, next look), when there is one. */
  at: number | null;
}

/** A path as a request named it, and what SERVER_PATH_MAPPINGS made of it. */
export interface RequestOrigin {
  /** The path as the source named it. */
  path: string;
  /** The media server's path it was mapped to. */
  mapped: string;
  /** The SERVER_PATH_MAPPINGS key (media-server prefix) and the prefix it replaced; null when no entry matched. */
  mappingKey: string | null;
  mappingPrefix: string | null;
  source: string;
  event: string;
  firstAt: number;
  lastAt: number;
  /** How many requests named it for this scan. */
  times: number;
}

/** A file a scan named: an import it waits to see (until `seen`), or a deletion. */
export interface ScanFileView {
  path: string;
  deleted: boolean;
  seen: boolean;
}

export interface LibraryRef {
  id: string;
  title: string;
}

/** One target's side of a scan. */
export interface DeliveryView {
  target: string;
  state: DeliveryState;
  /** Epoch ms when the next attempt may run (debounce or backoff). */
  dueAt: number;
  attempts: number;
  lastError: string | null;
  /** Libraries the folder resolved to, once known. */
  libraries: LibraryRef[] | null;
  /** After the scan: how the confirmation, analyze and trash went (or how it stands while confirming). */
  detail: string | null;
  /** Time from the scan's first request to Plex confirming it; null until confirmed (or never confirmed). */
  confirmedAfterMs: number | null;
  /** Epoch ms of this delivery's last change (its outcome, for a finished one). */
  updatedAt: number;
}

/** A scan's mergeable fields: a new request, or an existing row being regrouped. */
export interface ScanFacts {
  folder: string;
  priority: number;
  /** How many requests this scan stands for (merged, covered, absorbed). */
  requests: number;
  /** Source and event of the latest request. */
  source: string;
  event: string;
  firstRequestedAt: number;
  lastRequestedAt: number;
  /** End of the debounce: the earliest time any delivery may run. */
  dueAt: number;
}

/** A scan as the HTTP API and the manual page list it. */
export interface QueuedScan extends ScanFacts {
  /** The scan's row id: what the dashboard's actions name. */
  id: number;
  /** The shown state (src/queue/shown-state.ts), and the same in words. */
  state: ScanState;
  stateText: string;
  /** Why it waits, or how it ended; null when done. */
  reason: ScanReason | null;
  /** The dashboard actions that mean something in this state. */
  actions: readonly ScanAction[];
  /** A few of the paths its requests named, as named and as mapped. */
  origins: RequestOrigin[];
  finishedAt: number | null;
  deliveries: DeliveryView[];
  files: ScanFileView[];
  /** File-exists check rounds made so far, and when the next one is due (while waiting for files). */
  fileChecks: number;
  nextFileCheckAt: number | null;
  /** What happened beyond the deliveries (e.g. "scanned the folder anyway: …"), if anything. */
  detail: string | null;
}

/** A delivery claimed by the scheduler; it is `delivering` until reported back. */
export interface DeliveryJob {
  deliveryId: number;
  scanId: number;
  folder: string;
  target: string;
  /** Attempts made before this one. */
  attempts: number;
  firstRequestedAt: number;
  /** Imports the request named (media-server paths), when the scan deleted nothing; a target may narrow its scan to them. */
  files: string[];
  /** Named files whose items are refreshed where the target can (sidecars, files replaced in place; docs/item-refresh.md). */
  refresh?: string[];
  /** False when only sidecars were asked for: a target that knows all their items refreshes them and scans nothing. */
  scanFolder?: boolean;
  /** Source and event of the scan's latest request (for the before-scan hook). */
  source?: string;
  event?: string;
}

/** A scan given up by the maximum-age rule. */
export interface ExpiredScan {
  folder: string;
  firstRequestedAt: number;
}
