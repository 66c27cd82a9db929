import { SCAN_STATES, type DeliveryState, type FilesState, type StoredScanState } from "./lifecycle.js";

/**
 * The one vocabulary of states the API, the pages, /health, the metrics and
 * `scanarr status` show, mapped from the stored states of
 * src/queue/lifecycle.ts (see shownState). A finished scan shows its stored
 * state; a live one shows what it waits for.
 */
export const SHOWN_STATES = [
  "debouncing",
  "waiting-for-files",
  "held",
  "queued",
  "delivering",
  "confirming",
  "retrying",
  "done",
  "unconfirmed",
  "failed",
  "cancelled",
] as const;

/** What the queue shows about a scan. */
export type ScanState = (typeof SHOWN_STATES)[number];

/** The states of a scan still in the queue (open or closed), in the order a scan usually meets them. */
export const LIVE_SHOWN_STATES = [
  "debouncing",
  "waiting-for-files",
  "held",
  "queued",
  "retrying",
  "delivering",
  "confirming",
] as const satisfies readonly ScanState[];

/** Live states of a scan not yet handed to every target: what /health calls pending (confirming is delivered). */
export const WAITING_STATES = LIVE_SHOWN_STATES.filter((s) => s !== "confirming");

/** Each shown state in words, for pages and the terminal. */
export const STATE_WORDS: Record<ScanState, string> = {
  debouncing: "debouncing",
  "waiting-for-files": "waiting for files",
  held: "held",
  queued: "queued",
  delivering: "delivering",
  confirming: "confirming",
  retrying: "retrying",
  done: "done",
  unconfirmed: "unconfirmed",
  failed: "failed",
  cancelled: "cancelled",
};

/** Finished states the history lists: every stored scan state but the two live ones. */
export const HISTORY_STATES = SCAN_STATES.filter((s): s is Exclude<StoredScanState, "open" | "closed"> => s !== "open" && s !== "closed");
export type HistoryState = Exclude<StoredScanState, "open" | "closed">;

/** Whether a stored scan is still live (takes requests or is being delivered). */
export function isLive(state: StoredScanState): state is "open" | "closed" {
  return state === "open" || state === "closed";
}

export type HoldKind = "anchor" | "target-down" | "token-refused";

/** What holds deliveries back now (src/queue/holds.ts stores them; serve writes them when they change). */
export interface Hold {
  kind: HoldKind;
  /** The anchor's path, or the target's name. */
  subject: string;
  /** The error behind it (a target's), secret-free. */
  detail: string | null;
  /** Epoch ms since when it holds. */
  since: number;
}

/** What a scan's shown state depends on besides its own rows. */
export interface ShownContext {
  now: number;
  holds: readonly Hold[];
}

export interface ShownScanFacts {
  state: StoredScanState;
  files_state: FilesState;
  due_at: number;
}

export interface ShownDeliveryFacts {
  state: DeliveryState;
  target: string;
  attempts: number;
}

/** Targets the holds stop (down or refusing their token). */
export function heldTargets(holds: readonly Hold[]): Set<string> {
  return new Set(holds.filter((h) => h.kind !== "anchor").map((h) => h.subject));
}

/**
 * The state shown for one scan. In this order: a delivery in flight, one
 * being confirmed, the debounce, files not seen yet, a hold (a missing anchor
 * holds everything; a scan whose every waiting delivery goes to a target that
 * is down or refuses its token), a delivery tried before, else waiting its
 * turn. scan-counts.ts counts the same rules in SQL; a test keeps them equal.
 */
export function shownState(scan: ShownScanFacts, deliveries: readonly ShownDeliveryFacts[], ctx: ShownContext): ScanState {
  if (!isLive(scan.state)) return scan.state;
  if (deliveries.some((d) => d.state === "delivering")) return "delivering";
  if (deliveries.some((d) => d.state === "confirming")) return "confirming";
  // Files are looked for once the quiet time is over: until then the scan is debouncing.
  if (scan.due_at > ctx.now) return "debouncing";
  if (scan.files_state === "waiting") return "waiting-for-files";
  if (ctx.holds.some((h) => h.kind === "anchor")) return "held";
  const pending = deliveries.filter((d) => d.state === "pending");
  const held = heldTargets(ctx.holds);
  if (pending.length > 0 && pending.every((d) => held.has(d.target))) return "held";
  return pending.some((d) => d.attempts > 0) ? "retrying" : "queued";
}

/** The dashboard's actions on one scan. */
export type ScanAction = "scan-now" | "cancel" | "retry";

const ACTIONS: Record<ScanState, readonly ScanAction[]> = {
  // Scan now skips the debounce, the wait for files, a hold or the backoff; queued is due already.
  debouncing: ["scan-now", "cancel"],
  "waiting-for-files": ["scan-now", "cancel"],
  held: ["scan-now", "cancel"],
  retrying: ["scan-now", "cancel"],
  queued: ["cancel"],
  // In flight or accepted: nothing to cancel (src/queue/actions.ts refuses it).
  delivering: [],
  confirming: [],
  done: [],
  cancelled: [],
  unconfirmed: ["retry"],
  failed: ["retry"],
};

/** The actions that mean something for a scan in `state`; the pages offer only these. */
export function actionsFor(state: ScanState): readonly ScanAction[] {
  return ACTIONS[state];
}
