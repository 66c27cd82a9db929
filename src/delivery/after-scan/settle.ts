import { logHookRun } from "../../hooks/log-run.js";
import type { Hooks } from "../../hooks/hooks.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/logger.js";
import type { ConfirmFinish } from "../../queue/confirm-store.js";
import { sendThrough, type AnchorGate } from "../anchor-gate.js";
import type { AfterScanCapability, ItemRef, LibraryScanState } from "../../domain.js";
import { emptyTrashIfSafe, trashCauseOf } from "./empty-trash.js";
import { analyzeItems, refreshItems, type AnalyzeReport } from "./item-calls.js";
import type { PlexConfirming } from "./progress.js";
import { messageOf } from "../../lib/errors.js";

export interface SettleDeps {
  /** The target's after-scan capability. */
  afterScan: Pick<AfterScanCapability, "settings" | "analyzeCalls" | "refreshCalls" | "countTrash" | "emptyTrash">;
  target: string;
  /** The target's path for a media-server path: the hooks get the folder and files as that server sees them. */
  toTargetPath?: (path: string) => string;
  hooks?: Hooks;
  /**
   * The service's anchor gate (ANCHORS and PLEX_EMPTY_TRASH_CONTROL_FILES):
   * every analyze, item refresh and emptyTrash call goes through it.
   */
  gate?: AnchorGate;
  clock: Clock;
  logger: Logger;
}

/**
 * The settled deliveries whose analyze or item refresh must wait: they have
 * such work and an anchor is missing now (a check begun here). Nothing was
 * sent for them; the driver keeps them confirming and settles them again at
 * a later poll. The trash does not wait: it is left alone, as its rule says.
 */
export async function heldForAnchors(batch: PlexConfirming[], deps: SettleDeps): Promise<Set<PlexConfirming>> {
  const { afterScan, gate } = deps;
  const readsMount = (row: PlexConfirming) =>
    (afterScan.settings.analyzes && analyzeItemsOf(row).length > 0) || refreshItemsOf(row, deps).length > 0;
  const waiting = batch.filter(readsMount);
  if (!gate || waiting.length === 0 || (await gate.confirm())) return new Set();
  return new Set(waiting);
}

/**
 * The work after a batch of deliveries was settled in one poll: analyze their
 * items (each once, for the whole batch), empty each section's trash at most
 * once (when an upgrade or deletion made it eligible and the guard allows),
 * run the after-scan hook per delivery, and say how each ended. Each call to
 * Plex goes through the anchor gate. Never throws: Plex errors here (and a
 * call the gate held after others had gone out) are reported in the outcome,
 * never retried (retrying would analyze twice).
 */
export async function settleBatch(batch: PlexConfirming[], sections: LibraryScanState[], deps: SettleDeps): Promise<ConfirmFinish[]> {
  const { logger } = deps;
  const { server } = deps.afterScan.settings.confirm;
  const report = await analyzeBatch(batch, deps);
  const refreshed = await refreshBatch(batch, report, deps);
  const trash = await emptyTrashOfBatch(batch, sections, deps);
  const now = deps.clock.now();
  const finishes: ConfirmFinish[] = [];
  for (const row of batch) {
    const results = row.progress.sections.map((s) => s.result);
    const missing = [...new Set(results.flatMap((r) => r?.notConfirmed ?? []))];
    const unconfirmed = results.find((r) => r?.kind === "unconfirmed");
    const result = unconfirmed ? "unconfirmed" : results.every((r) => r?.kind === "confirmed") ? "confirmed" : "finished";
    const after = Math.round((now - row.firstRequestedAt) / 1000);
    const analyzed = analyzedOf(row, report);
    const trashText = row.progress.sections.map((s) => trash.get(s.id)).find((t) => t !== undefined);
    const parts = [
      unconfirmed
        ? `unconfirmed: ${unconfirmed.reason ?? `files not as expected in ${server}`}; not as expected: ${missing.join(", ") || "none"}`
        : result === "confirmed"
          ? `confirmed ${after} s after the first request`
          : `the section finished scanning ${after} s after the first request`,
      ...(analyzed.length > 0 ? [`analyzed ${analyzed.length} item(s)`] : []),
      ...refreshedOf(row, refreshed, deps),
      ...(trashText ? [`trash: ${trashText}`] : []),
    ];
    const first = row.progress.sections[0];
    const seen = deps.toTargetPath ?? ((path: string) => path);
    const run = await deps.hooks?.after({
      folder: seen(row.folder),
      source: row.source,
      event: row.event,
      target: deps.target,
      ...(first ? { section: { id: first.id, title: first.title } } : {}),
      files: row.files.map(seen),
      deletedFiles: row.deletedFiles.map(seen),
      result,
      missingFiles: missing,
      analyzedItems: analyzed,
      ...(trashText ? { trash: trashText } : {}),
    });
    if (run) logHookRun(logger, run, row.folder);
    const where = { folder: row.folder, target: deps.target };
    if (unconfirmed) logger.warn({ ...where, missing }, `scan unconfirmed: ${unconfirmed.reason ?? `files not as expected in ${server}`}`);
    else logger.info({ ...where, seconds: after }, result === "confirmed" ? `scan confirmed by ${server}` : `${server} finished the scan`);
    finishes.push({
      deliveryId: row.deliveryId,
      scanId: row.scanId,
      state: unconfirmed ? "unconfirmed" : "done",
      detail: parts.join("; "),
      error: unconfirmed ? (parts[0] ?? null) : null,
      progress: { ...row.progress, ...(result === "confirmed" ? { confirmedAfterMs: now - row.firstRequestedAt } : {}) },
    });
  }
  return finishes;
}

/** A sidecar's video is refreshed, not analyzed: its media did not change. */
function analyzeItemsOf(row: PlexConfirming): ItemRef[] {
  return row.progress.sections.flatMap((s) => (s.result?.items ?? []).filter((i) => i.named === undefined));
}

async function analyzeBatch(batch: PlexConfirming[], deps: SettleDeps): Promise<AnalyzeReport> {
  const items = batch.flatMap(analyzeItemsOf);
  try {
    const report = await analyzeItems(deps.afterScan, items, sendThrough(deps.gate));
    if (report.analyzed.length > 0) deps.logger.info({ items: report.analyzed.length }, "asked Plex to analyze the new items");
    for (const { ratingKey, error } of report.failed) deps.logger.warn({ ratingKey, err: error }, "Plex could not analyze an item");
    return report;
  } catch (error) {
    deps.logger.warn({ err: error, items: items.length }, "could not analyze the new items");
    return { analyzed: [], failed: [] };
  }
}

/** The confirmed items of each row's files marked for refresh (docs/item-refresh.md); the items carry the target's paths. */
function refreshItemsOf(row: PlexConfirming, deps: Pick<SettleDeps, "toTargetPath">): ItemRef[] {
  const seen = deps.toTargetPath ?? ((path: string) => path);
  const wanted = new Set(row.refreshFiles.map(seen));
  return row.progress.sections.flatMap((s) => (s.result?.items ?? []).filter((i) => wanted.has(i.named ?? i.file)));
}

/** Refreshes, once for the batch, the items whose files asked for it; analyzes the replaced ones not analyzed above. */
async function refreshBatch(batch: PlexConfirming[], report: AnalyzeReport, deps: SettleDeps): Promise<Set<string>> {
  const items = batch.flatMap((row) => refreshItemsOf(row, deps));
  if (items.length === 0) return new Set();
  try {
    const round = await refreshItems(deps.afterScan, items, new Set(report.analyzed), sendThrough(deps.gate));
    deps.logger.info({ items: round.refreshed.length, analyzed: round.analyzed.length }, "asked Plex to refresh the items");
    for (const { ratingKey, error } of round.failed) deps.logger.warn({ ratingKey, err: error }, "Plex could not refresh an item");
    return new Set(round.refreshed);
  } catch (error) {
    deps.logger.warn({ err: error, items: items.length }, "could not refresh the items");
    return new Set();
  }
}

function refreshedOf(row: PlexConfirming, refreshed: ReadonlySet<string>, deps: SettleDeps): string[] {
  const keys = new Set(refreshItemsOf(row, deps).flatMap((i) => (refreshed.has(i.ratingKey) ? [i.ratingKey] : [])));
  return keys.size > 0 ? [`refreshed ${keys.size} item(s)`] : [];
}

function analyzedOf(row: PlexConfirming, report: AnalyzeReport): string[] {
  const done = new Set(report.analyzed);
  const keys = row.progress.sections.flatMap((s) => (s.result?.items ?? []).flatMap((i) => [i.ratingKey, i.parentRatingKey ?? ""]));
  return [...new Set(keys.filter((k) => done.has(k)))];
}

/** Per section of the batch: what became of its trash, in words; sections nothing made eligible are left out. */
async function emptyTrashOfBatch(batch: PlexConfirming[], sections: LibraryScanState[], deps: SettleDeps): Promise<Map<string, string>> {
  const causesBy = new Map<string, Array<"upgrade" | "deletion">>();
  for (const row of batch) {
    const cause = trashCauseOf({ event: row.event, files: row.files.length, deletedFiles: row.deletedFiles.length });
    if (!cause) continue;
    for (const s of row.progress.sections) causesBy.set(s.id, [...(causesBy.get(s.id) ?? []), cause]);
  }
  const outcome = new Map<string, string>();
  let anchorsPresent: boolean | undefined;
  // The look before the count spares a count while a mount is down; the gate that lets the call out looks after it.
  const { gate } = deps;
  for (const [id, causes] of causesBy) {
    const section = sections.find((s) => s.id === id);
    if (!section) {
      outcome.set(id, "left alone: the section is not in Plex");
      continue;
    }
    anchorsPresent ??= gate ? await gate.confirm() : true;
    try {
      const input = { sectionRefreshing: section.refreshing, alreadyEmptied: false, anchorsPresent, causes };
      const result = await emptyTrashIfSafe(
        deps.afterScan,
        { id, type: section.type },
        input,
        deps.afterScan.settings.trash,
        sendThrough(gate),
      );
      if (result.action === "emptied") {
        outcome.set(id, `emptied (${result.deletedCount} deleted items)`);
        deps.logger.info({ section: section.title, deleted: result.deletedCount }, "emptied the section's trash");
      } else {
        outcome.set(id, `left alone: ${result.reason}`);
        deps.logger.warn({ section: section.title, reason: result.reason }, "the section's trash was not emptied");
      }
    } catch (error) {
      const reason = messageOf(error);
      outcome.set(id, `not emptied: ${reason}`);
      deps.logger.warn({ section: section.title, err: error }, "could not empty the section's trash");
    }
  }
  return outcome;
}
