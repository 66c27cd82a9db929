import { AnchorMissingError, type AfterScanCapability, type TrashSettings } from "../../domain.js";
import { sendUngated, type AnchorSend } from "../anchor-gate.js";

/** What makes a section's trash worth emptying: an upgrade replaced a file, or files were deleted. */
export type TrashCause = "upgrade" | "deletion";

export type { TrashSettings } from "../../domain.js";

/** What the queue knows about one section at the end of a batch of scans. */
export interface TrashInput {
  /** `refreshing` from the latest section poll. */
  sectionRefreshing: boolean;
  /** The trash of this section was already emptied for this batch. */
  alreadyEmptied: boolean;
  /** Every anchor and PLEX_EMPTY_TRASH_CONTROL_FILES entry is present (the anchor monitor's answer). */
  anchorsPresent: boolean;
  /** The causes the batch's scans brought (trashCauseOf of each). */
  causes: readonly TrashCause[];
  /** The section's deleted-item count; undefined until counted. */
  deletedCount?: number;
}

export type TrashDecision =
  /** Poll again: the section is still scanning. */
  | { action: "wait"; reason: string }
  /** Count the section's trash, then decide again with `deletedCount`. */
  | { action: "count" }
  | { action: "skip"; reason: string }
  | { action: "empty" };

/**
 * Whether to empty a section's trash now. Pure, and every "no" says why: the
 * reason goes to the queue API and the log. plex_autoscan's rules, per
 * section: never above PLEX_EMPTY_TRASH_MAX_FILES (0 turns emptying off, as
 * it did there), never with a control file missing, and with nothing in the
 * trash only for an upgrade or with PLEX_EMPTY_TRASH_ZERO_DELETED. Unlike
 * plex_autoscan, a batch of plain imports never empties the trash: only
 * upgrades and deletions make a section eligible.
 */
export function decideEmptyTrash(input: TrashInput, settings: TrashSettings): TrashDecision {
  if (!settings.enabled) return { action: "skip", reason: "PLEX_EMPTY_TRASH is off" };
  if (settings.maxFiles <= 0) return { action: "skip", reason: "PLEX_EMPTY_TRASH_MAX_FILES is 0, which turns emptying off" };
  if (input.causes.length === 0) return { action: "skip", reason: "no upgrade or deletion in this batch" };
  if (input.alreadyEmptied) return { action: "skip", reason: "already emptied for this batch" };
  if (input.sectionRefreshing) return { action: "wait", reason: "the section is still refreshing" };
  if (!input.anchorsPresent) {
    return { action: "skip", reason: "an anchor or control file is missing (is the mount down?); the trash was left alone" };
  }
  if (input.deletedCount === undefined) return { action: "count" };
  if (input.deletedCount > settings.maxFiles) {
    return {
      action: "skip",
      reason: `${input.deletedCount} deleted items in the section, more than PLEX_EMPTY_TRASH_MAX_FILES (${settings.maxFiles}): the trash was left alone; check the mount, then empty it in Plex if the deletions are real`,
    };
  }
  if (input.deletedCount === 0 && !settings.zeroDeleted && !input.causes.includes("upgrade")) {
    return { action: "skip", reason: "the trash is empty (PLEX_EMPTY_TRASH_ZERO_DELETED is off)" };
  }
  return { action: "empty" };
}

/**
 * The trash cause of one scan: an import that also replaced files is an
 * upgrade (Sonarr/Radarr send the old files as `deletedFiles`); a delete
 * event, or any scan that removed files (a rename's old paths), is a deletion.
 */
export function trashCauseOf(scan: { event: string; files: number; deletedFiles: number }): TrashCause | undefined {
  const isDeleteEvent = /delete$/i.test(scan.event);
  if (!isDeleteEvent && scan.deletedFiles > 0 && scan.files > 0 && /^(download|import)/i.test(scan.event)) return "upgrade";
  if (isDeleteEvent || scan.deletedFiles > 0) return "deletion";
  return undefined;
}

export type TrashResult =
  | { action: "wait"; reason: string }
  | { action: "skipped"; reason: string; deletedCount?: number }
  | { action: "emptied"; deletedCount: number };

/**
 * The whole step for one section: decide, count the trash when needed (the
 * target's countTrash: Plex's database when readable, else its API), decide
 * again, and empty it. The server's errors are thrown (Target*Error); nothing is emptied
 * on a count that could not be read. The emptyTrash call goes through
 * `send`, the anchor gate: it looks at the anchors again after the count,
 * and the call leaves in the same turn as every one is found, not at all
 * when one is missing.
 */
export async function emptyTrashIfSafe(
  target: Pick<AfterScanCapability, "countTrash" | "emptyTrash">,
  section: { id: string; type: string },
  input: Omit<TrashInput, "deletedCount">,
  settings: TrashSettings,
  send: AnchorSend = sendUngated,
): Promise<TrashResult> {
  const first = decideEmptyTrash(input, settings);
  if (first.action === "wait") return first;
  if (first.action === "skip") return { action: "skipped", reason: first.reason };
  const count = await target.countTrash(section);
  const second = decideEmptyTrash({ ...input, deletedCount: count }, settings);
  if (second.action === "skip") return { action: "skipped", reason: second.reason, deletedCount: count };
  if (second.action !== "empty") return { action: "skipped", reason: "the count did not settle the decision", deletedCount: count };
  try {
    await send(() => target.emptyTrash(section));
  } catch (error) {
    if (!(error instanceof AnchorMissingError)) throw error;
    const held = decideEmptyTrash({ ...input, anchorsPresent: false, deletedCount: count }, settings);
    return { action: "skipped", reason: held.action === "skip" ? held.reason : error.message, deletedCount: count };
  }
  return { action: "emptied", deletedCount: count };
}
