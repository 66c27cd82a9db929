/**
 * What coalescing reads of an open scan: the columns a merge needs, read as
 * a raw row (an array) by the lookups of `statements.ts`, which costs less
 * than a row object of every column on each webhook.
 */
export interface OpenScanRow {
  id: number;
  folder: string;
  priority: number;
  requests: number;
  source: string;
  event: string;
  first_requested_at: number;
  last_requested_at: number;
  due_at: number;
  /** 0: only sidecars were asked for (docs/item-refresh.md); 1: the folder is scanned. */
  scan_folder: number;
}

/** The columns of an OpenScanRow, in the order `openScanOf` reads them. */
export const OPEN_SCAN_COLUMNS =
  "id, folder, priority, requests, source, event, first_requested_at, last_requested_at, due_at, scan_folder";

type RawOpenScan = [number, string, number, number, string, string, number, number, number, number];

/** An OpenScanRow from a raw row of OPEN_SCAN_COLUMNS. */
export function openScanOf(raw: unknown[]): OpenScanRow {
  const [id, folder, priority, requests, source, event, first, last, due, scanFolder] = raw as RawOpenScan;
  return {
    id,
    folder,
    priority,
    requests,
    source,
    event,
    first_requested_at: first,
    last_requested_at: last,
    due_at: due,
    scan_folder: scanFolder,
  };
}
