import type { ConfirmingDelivery } from "../../queue/confirm-store.js";
import type { ConfirmSettings, ItemRef } from "../../domain.js";

/** How one library section of a confirming delivery stands; the driver's record, stored by the queue as JSON. */
export interface SectionProgress {
  id: string;
  title: string;
  /** When the latest scan call (first or re-scan) was accepted. */
  scannedAt: number;
  rescanned: boolean;
  /** Since when the re-scan is held by a missing anchor (unset once it went out). */
  rescanHeld?: number;
  sawRefreshing?: boolean;
  /** Polls since its latest scan call that found the section finished and the files not yet as expected (spaces the next looks out). */
  looks?: number;
  /** Files the latest poll found not as expected (shown while waiting). */
  notConfirmed?: string[];
  /** Set once the section is settled. */
  result?: { kind: "confirmed" | "finished" | "unconfirmed"; items: ItemRef[]; notConfirmed: string[]; reason?: string };
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
export function describeProgress(progress: ConfirmProgressRecord, server: string): string {
  const held = progress.sections.some((s) => s.rescanHeld !== undefined);
  const parts = progress.sections.map((s) => {
    const missing = s.notConfirmed?.length ? `, not in ${server} yet: ${s.notConfirmed.join(", ")}` : "";
    const rescan = s.rescanHeld !== undefined ? " (to be scanned again)" : s.rescanned ? " (scanned again)" : "";
    return `${s.title}${rescan}${missing}`;
  });
  const waiting = `waiting for ${server} to confirm: ${parts.join("; ") || "the section"}`;
  return held ? `held: re-scan waits for the anchors (an anchor is missing); ${waiting}` : waiting;
}

/** A settled delivery whose analyze or item refresh waits for the anchors, in words. */
export function describeHeldSettle(progress: ConfirmProgressRecord, server: string): string {
  const titles = progress.sections.map((s) => s.title).join(", ");
  return `held: ${titles || "the section"} settled in ${server}; analyze and item refresh wait for the anchors (an anchor is missing)`;
}

/** The record with its sections' results dropped: the next poll decides them again. */
export function unsettled(progress: ConfirmProgressRecord): ConfirmProgressRecord {
  return { ...progress, sections: progress.sections.map(({ result: _result, ...s }) => s) };
}

/** Looks at a waiting section one poll apart at first, then twice as far apart each time, up to this many polls. */
const LONGEST_GAP_POLLS = 8;
const EVEN_LOOKS = 2;

/**
 * When the driver looks at a delivery still being confirmed next: each
 * unsettled section one poll after its scan call, then one poll apart (at
 * every poll while the section refreshes), and, once the server finished
 * and still lacks the files, one poll apart for the first looks and farther
 * apart after them (a server that lags is not asked about every scan at
 * every poll; a poll's ROUND_LIMIT bounds the rest), but never later than the moments
 * the confirmation decides something (the re-scan delay, the longest wait
 * for a refreshing section). A re-scan held by a missing anchor is tried
 * at the next poll. Always after `now`.
 */
export function nextLookAt(progress: ConfirmProgressRecord, now: number, settings: ConfirmSettings): number {
  let next = Number.POSITIVE_INFINITY;
  for (const s of progress.sections) {
    if (s.result) continue;
    next = Math.min(next, s.rescanHeld !== undefined ? now + settings.pollMs : sectionLookAt(s, now, settings));
  }
  return Number.isFinite(next) ? Math.max(next, now + 1) : now + settings.pollMs;
}

function sectionLookAt(s: SectionProgress, now: number, settings: ConfirmSettings): number {
  const gapPolls = Math.min(2 ** Math.max(0, (s.looks ?? 0) - EVEN_LOOKS), LONGEST_GAP_POLLS);
  const decisions = [settings.pollMs, settings.rescanDelayMs, settings.maxWaitMs].map((ms) => s.scannedAt + ms).filter((at) => at > now);
  return Math.min(now + gapPolls * settings.pollMs, ...decisions);
}
