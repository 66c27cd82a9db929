import type { ConfirmSettings, ItemRef } from "../../domain.js";

export type { ConfirmSettings } from "../../domain.js";

/** What the queue keeps about one scan of one section while it is being confirmed. */
export interface ConfirmProgress {
  /** When the latest scan call (first or re-scan) was accepted by Plex. */
  scannedAt: number;
  /** Whether the folder was already scanned a second time. */
  rescanned: boolean;
  /** Whether a poll after the latest scan call saw the section `refreshing`. */
  sawRefreshing?: boolean;
}

/** The section as the latest poll saw it; undefined when Plex no longer has the section. */
export type SectionObservation = { refreshing: boolean } | undefined;

/** The files of the scan as Plex knows them now. */
export interface FileCheck {
  /** Items of the files expected present that Plex has. */
  items: ItemRef[];
  /** Files not as expected: an import Plex lacks, or a deleted file Plex still lists. */
  notConfirmed: string[];
}

export type ConfirmStep =
  /** Poll again later; `refreshing` is what to remember as `sawRefreshing`. */
  | { kind: "wait"; why: "refreshing" | "settling" | "files-missing"; refreshing: boolean; notConfirmed: string[] }
  /** Every file is as expected (or none was named and the section finished). */
  | { kind: "confirmed"; items: ItemRef[] }
  /** PLEX_CONFIRM_SCANS off: the section finished; `items` are the files Plex has now. */
  | { kind: "finished"; items: ItemRef[] }
  /** Scan the folder once more now, then confirm again with `rescanned: true`. */
  | { kind: "rescan"; notConfirmed: string[] }
  /** Give up: visible in the queue, the page and the log. */
  | { kind: "unconfirmed"; notConfirmed: string[]; items: ItemRef[]; reason: string };

/** Whether this poll must look at the files: only once the section is done refreshing (or waited too long). */
export function needsFileCheck(progress: ConfirmProgress, section: SectionObservation, now: number, settings: ConfirmSettings): boolean {
  if (section === undefined) return false;
  if (section.refreshing) return now - progress.scannedAt >= settings.maxWaitMs;
  return progress.sawRefreshing === true || now - progress.scannedAt >= settings.pollMs;
}

/**
 * The next step for one scan of one section, from the latest poll. Pure: the
 * queue stores `ConfirmProgress`, calls this on every poll (with `check` when
 * `needsFileCheck` said so) and moves the scan to the state it names.
 *
 * A partial scan of one folder often finishes between two polls, so a
 * section never seen `refreshing` counts as finished once `pollMs` has passed
 * since the scan call; missing files are then waited for until
 * `rescanDelayMs` after the call (Plex may not have picked the scan up yet),
 * scanned once more, and finally reported unconfirmed.
 */
export function decideConfirmStep(
  progress: ConfirmProgress,
  section: SectionObservation,
  check: FileCheck | undefined,
  now: number,
  settings: ConfirmSettings,
): ConfirmStep {
  const refreshing = section?.refreshing ?? false;
  if (section === undefined) {
    return { kind: "unconfirmed", notConfirmed: [], items: [], reason: `the section no longer exists in ${settings.server}` };
  }
  if (!needsFileCheck(progress, section, now, settings) || check === undefined) {
    return { kind: "wait", why: section.refreshing ? "refreshing" : "settling", refreshing, notConfirmed: [] };
  }
  if (!settings.confirmFiles) return { kind: "finished", items: check.items };
  if (check.notConfirmed.length === 0) return { kind: "confirmed", items: check.items };
  if (now - progress.scannedAt < settings.rescanDelayMs) {
    return { kind: "wait", why: "files-missing", refreshing, notConfirmed: check.notConfirmed };
  }
  if (!progress.rescanned) return { kind: "rescan", notConfirmed: check.notConfirmed };
  const waited = Math.round((now - progress.scannedAt) / 1000);
  return {
    kind: "unconfirmed",
    notConfirmed: check.notConfirmed,
    items: check.items,
    reason: `${describeCount(check.notConfirmed.length)} not as expected in ${settings.server} ${waited} s after the second scan`,
  };
}

function describeCount(count: number): string {
  return count === 1 ? "1 file" : `${count} files`;
}
