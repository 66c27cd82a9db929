import { SCAN_STATES, type DeliveryState, type FilesState, type StoredScanState } from "./lifecycle.js";

/**
 * The one map from stored states (src/queue/lifecycle.ts) to the states the
 * API, the pages and the metrics show. A finished scan shows its stored state;
 * an open or closed one shows what it waits for.
 */
export const SHOWN_STATES = [
  "pending",
  "waiting-for-files",
  "delivering",
  "confirming",
  "done",
  "unconfirmed",
  "failed",
  "cancelled",
] as const;

/** What the queue shows about a scan; `delivering` while any target is being called. */
export type ScanState = (typeof SHOWN_STATES)[number];

/** Finished states the history lists: every stored scan state but the two live ones. */
export const HISTORY_STATES = SCAN_STATES.filter((s): s is Exclude<StoredScanState, "open" | "closed"> => s !== "open" && s !== "closed");
export type HistoryState = Exclude<StoredScanState, "open" | "closed">;

/** Whether a stored scan is still live (takes requests or is being delivered). */
export function isLive(state: StoredScanState): state is "open" | "closed" {
  return state === "open" || state === "closed";
}

/** The state the API and the pages show for one scan, from its row and its deliveries' states. */
export function displayState(scan: { state: StoredScanState; files_state: FilesState }, deliveries: readonly DeliveryState[]): ScanState {
  if (!isLive(scan.state)) return scan.state;
  if (deliveries.includes("delivering")) return "delivering";
  if (deliveries.includes("confirming")) return "confirming";
  return scan.files_state === "waiting" ? "waiting-for-files" : "pending";
}

/**
 * The state the dashboard's counts and the `scanarr_queue_scans` gauge file
 * a stored scan under. They differ from displayState on purpose: the counts
 * come from the `scan_count` table the triggers keep (one row per stored
 * state) and the partial index of scans waiting for files, so they cost the
 * same whatever the queue holds; telling `delivering` and `confirming` apart
 * would read every live scan's deliveries. A scan being delivered or
 * confirmed is counted `pending` (waiting-for-files is subtracted from it).
 */
export function countedState(state: StoredScanState): "pending" | HistoryState {
  return isLive(state) ? "pending" : state;
}
