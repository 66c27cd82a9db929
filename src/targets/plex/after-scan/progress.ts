import type { ConfirmingDelivery } from "../../../queue/confirm-store.js";
import type { PlexItemRef } from "../library-items-db.js";

/** How one library section of a confirming delivery stands; the driver's record, stored by the queue as JSON. */
export interface SectionProgress {
  id: string;
  title: string;
  /** When the latest scan call (first or re-scan) was accepted. */
  scannedAt: number;
  rescanned: boolean;
  sawRefreshing?: boolean;
  /** Files the latest poll found not as expected (shown while waiting). */
  notConfirmed?: string[];
  /** Set once the section is settled. */
  result?: { kind: "confirmed" | "finished" | "unconfirmed"; items: PlexItemRef[]; notConfirmed: string[]; reason?: string };
}

export interface ConfirmProgressRecord {
  sections: SectionProgress[];
}

/** A confirming delivery with the Plex driver's record read (or started). */
export type PlexConfirming = Omit<ConfirmingDelivery, "progress"> & { progress: ConfirmProgressRecord };

/**
 * The driver's record of a delivery: as last saved, or, before the first
 * poll, one section per library the folder resolved to, scanned when it was
 * delivered. A record this version cannot read counts as no section: the
 * delivery then settles as finished at once.
 */
export function readProgress(row: ConfirmingDelivery): PlexConfirming {
  const saved = row.progress as Partial<ConfirmProgressRecord> | null;
  const progress: ConfirmProgressRecord =
    saved === null
      ? { sections: row.libraries.map((l) => ({ id: l.id, title: l.title, scannedAt: row.deliveredAt, rescanned: false })) }
      : Array.isArray(saved.sections)
        ? (saved as ConfirmProgressRecord)
        : { sections: [] };
  return { ...row, progress };
}

/** While confirming: what the latest poll saw, in words (the queue shows it as the delivery's detail). */
export function describeProgress(progress: ConfirmProgressRecord): string {
  const parts = progress.sections.map((s) => {
    const missing = s.notConfirmed?.length ? `, not in Plex yet: ${s.notConfirmed.join(", ")}` : "";
    return `${s.title}${s.rescanned ? " (scanned again)" : ""}${missing}`;
  });
  return `waiting for Plex to confirm: ${parts.join("; ") || "the section"}`;
}
