import type { DeliveryState, DeliveryView, LibraryRef, QueuedScan, ScanFacts, ScanState } from "./types.js";

export type StoredScanState = "open" | "closed" | "done" | "failed";

export interface ScanRow {
  id: number;
  folder: string;
  state: StoredScanState;
  priority: number;
  requests: number;
  source: string;
  event: string;
  first_requested_at: number;
  last_requested_at: number;
  due_at: number;
  finished_at: number | null;
}

export interface DeliveryRow {
  id: number;
  scan_id: number;
  target: string;
  state: DeliveryState;
  due_at: number;
  retry_at: number;
  attempts: number;
  last_error: string | null;
  libraries: string | null;
  updated_at: number;
}

export function toDeliveryView(row: DeliveryRow): DeliveryView {
  return {
    target: row.target,
    state: row.state,
    dueAt: row.due_at,
    attempts: row.attempts,
    lastError: row.last_error,
    libraries: parseLibraries(row.libraries),
  };
}

/** The mergeable fields of a stored scan. */
export function factsOf(row: ScanRow): ScanFacts {
  return {
    folder: row.folder,
    priority: row.priority,
    requests: row.requests,
    source: row.source,
    event: row.event,
    firstRequestedAt: row.first_requested_at,
    lastRequestedAt: row.last_requested_at,
    dueAt: row.due_at,
  };
}

export function toQueuedScan(row: ScanRow, deliveries: DeliveryRow[]): QueuedScan {
  return {
    ...factsOf(row),
    state: displayState(row.state, deliveries),
    finishedAt: row.finished_at,
    deliveries: deliveries.map(toDeliveryView),
  };
}

function displayState(state: StoredScanState, deliveries: DeliveryRow[]): ScanState {
  if (state === "done" || state === "failed") return state;
  return deliveries.some((d) => d.state === "delivering") ? "delivering" : "pending";
}

function parseLibraries(json: string | null): LibraryRef[] | null {
  if (json === null) return null;
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return null;
    return value.filter(isLibraryRef);
  } catch {
    return null;
  }
}

function isLibraryRef(value: unknown): value is LibraryRef {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.id === "string" && typeof record.title === "string";
}
