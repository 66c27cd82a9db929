import { isInside } from "./loop-guard.js";

/** What happened to a path: it is there (new or changed), a file is gone, or a whole folder is gone. */
export type Change = "present" | "removed" | "removed-dir";

/** A file's size and modification time when it was last seen, so a poll round can tell it still grows. */
export interface FileMark {
  size: number;
  mtimeMs: number;
}

export interface PendingFile {
  file: string;
  folder: string;
  change: Change;
  notedAt: number;
  mark?: FileMark;
}

/** A folder whose changes have been quiet for MIN_AGE: one scan request (two with deletions). */
export interface DueFolder {
  folder: string;
  present: string[];
  /** Removed files and removed sub-folders. */
  removed: string[];
  entries: PendingFile[];
}

interface FolderState {
  lastAt: number;
  files: Map<string, PendingFile>;
}

/**
 * Holds changes until their folder has been quiet for `minAgeMs`: every change
 * in a folder restarts that folder's wait, so a season pack of 1,000 files is
 * one due folder. It keeps no timer; the watcher asks for `nextDueAt()` and
 * arms its single timer there.
 */
export class Settler {
  private readonly folders = new Map<string, FolderState>();

  constructor(private readonly minAgeMs: number) {}

  note(entry: PendingFile): void {
    let state = this.folders.get(entry.folder);
    if (!state) {
      state = { lastAt: entry.notedAt, files: new Map() };
      this.folders.set(entry.folder, state);
    }
    state.lastAt = Math.max(state.lastAt, entry.notedAt);
    state.files.set(entry.file, entry);
    // A removed folder takes everything noted inside it along: it is scanned through its parent.
    if (entry.change === "removed-dir")
      for (const folder of [...this.folders.keys()]) if (isInside(folder, entry.file)) this.folders.delete(folder);
  }

  /** Removes and returns every folder quiet for at least MIN_AGE at `now`. */
  take(now: number): DueFolder[] {
    const due: DueFolder[] = [];
    for (const [folder, state] of this.folders) {
      if (now - state.lastAt < this.minAgeMs) continue;
      this.folders.delete(folder);
      const entries = [...state.files.values()];
      due.push({
        folder,
        entries,
        present: entries.filter((e) => e.change === "present").map((e) => e.file),
        removed: entries.filter((e) => e.change !== "present").map((e) => e.file),
      });
    }
    const gone = due.flatMap((d) => d.entries.filter((e) => e.change === "removed-dir").map((e) => e.file));
    return due.filter((d) => !gone.some((dir) => isInside(d.folder, dir))).sort((a, b) => (a.folder < b.folder ? -1 : 1));
  }

  /** Puts folders back (their request could not be committed); they are due again at once. */
  restore(due: readonly DueFolder[]): void {
    for (const folder of due) for (const entry of folder.entries) this.note(entry);
  }

  nextDueAt(): number | undefined {
    let next: number | undefined;
    for (const state of this.folders.values()) next = Math.min(next ?? Infinity, state.lastAt + this.minAgeMs);
    return next;
  }

  /** Every pending entry (status, and the poll round's re-check of growing files). */
  pending(): PendingFile[] {
    return [...this.folders.values()].flatMap((state) => [...state.files.values()]);
  }

  clear(): void {
    this.folders.clear();
  }
}
