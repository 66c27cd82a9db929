import type { OpenScanRow } from "./open-scan.js";
import type { DeliveryState, FilesState, StoredScanState } from "./lifecycle.js";
import type { LibraryRef, ScanFacts } from "./types.js";

export type { StoredScanState } from "./lifecycle.js";

/** A `scan_queue` row: what coalescing reads of it (OpenScanRow) and the rest. */
export interface ScanRow extends OpenScanRow {
  state: StoredScanState;
  finished_at: number | null;
  files_state: FilesState;
  file_checks: number;
  file_check_at: number;
  detail: string | null;
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
  detail: string | null;
  confirm: string | null;
}

/** The mergeable fields of a stored scan. */
export function factsOf(row: OpenScanRow): ScanFacts {
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

/** The libraries column (JSON); null when unset or unreadable. */
export function parseLibraries(json: string | null): LibraryRef[] | null {
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
