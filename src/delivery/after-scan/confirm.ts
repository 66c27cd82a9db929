import type { AfterScanCapability, FindFilesRequest, LibraryScanState } from "../../domain.js";
import { decideConfirmStep, needsFileCheck, type ConfirmProgress, type ConfirmSettings, type ConfirmStep } from "./confirm-step.js";

export type { ConfirmProgress, ConfirmSettings, ConfirmStep, FileCheck } from "./confirm-step.js";

/** One scan of one section waiting to be confirmed. */
export interface ConfirmWait extends ConfirmProgress {
  /** The queue's own key for this scan and section; echoed in the outcome. */
  id: string;
  sectionId: string;
  /** Files the request named that should now be in Plex (imports, upgrades, renames' new paths). */
  files: readonly string[];
  /** Files that should now be gone from Plex (deletes, an upgrade's old file, renames' old paths). */
  deletedFiles: readonly string[];
}

export interface ConfirmOutcome {
  id: string;
  step: ConfirmStep;
}

export interface ConfirmRound {
  outcomes: ConfirmOutcome[];
  /** The libraries as this poll saw them, for the empty-trash decision; empty when nothing waited. */
  sections: LibraryScanState[];
  /** Where the files were looked up; absent when no file was checked. */
  lookup?: { source: string; sourceProblem?: string };
}

export interface ConfirmerOptions {
  /** The target's after-scan capability: its libraries' states and its file lookup. */
  target: Pick<AfterScanCapability, "listLibraryStates" | "findFiles">;
  settings: ConfirmSettings;
}

/** Polls the server for every waiting scan at once. */
export interface Confirmer {
  /**
   * One poll for all of `waits`: a single list of the libraries (Plex: `GET
   * /library/sections`) answers for every section (so for every scan, however
   * many wait on one section), then one lookup covers the files of every scan
   * whose section is done. Nothing is called when nothing waits. Throws a
   * Target*Error when the server cannot be asked; the driver then polls
   * again at its next interval. `sections`: the libraries as an earlier
   * slice of the same poll saw them, so a poll lists them once.
   */
  poll(waits: readonly ConfirmWait[], now: number, sections?: LibraryScanState[]): Promise<ConfirmRound>;
}

export function createConfirmer(options: ConfirmerOptions): Confirmer {
  const { target, settings } = options;
  return {
    async poll(waits, now, seen) {
      if (waits.length === 0) return { outcomes: [], sections: seen ?? [] };
      const sections = seen ?? (await target.listLibraryStates());
      const byId = new Map(sections.map((s) => [s.id, s]));
      const checked: ConfirmWait[] = [];
      const requests: FindFilesRequest[] = [];
      for (const wait of waits) {
        const section = byId.get(wait.sectionId);
        if (!section || !needsFileCheck(wait, section, now, settings)) continue;
        checked.push(wait);
        requests.push({ library: section, files: [...wait.files, ...wait.deletedFiles] });
      }
      const anyFiles = requests.some((r) => r.files.length > 0);
      const located = anyFiles ? await target.findFiles(requests) : undefined;
      const checks = new Map(
        checked.map((wait, i) => {
          const found = located?.found[i] ?? new Map();
          const missing = wait.files.filter((file) => !found.has(file));
          const lingering = wait.deletedFiles.filter((file) => found.has(file));
          const items = wait.files.flatMap((file) => found.get(file) ?? []);
          return [wait.id, { items, notConfirmed: [...missing, ...lingering] }];
        }),
      );
      const outcomes = waits.map((wait) => ({
        id: wait.id,
        step: decideConfirmStep(wait, byId.get(wait.sectionId), checks.get(wait.id), now, settings),
      }));
      const round: ConfirmRound = { outcomes, sections };
      if (located) round.lookup = { source: located.source, ...(located.sourceProblem ? { sourceProblem: located.sourceProblem } : {}) };
      return round;
    },
  };
}
