import { watch, type Dirent, type FSWatcher, type Stats } from "node:fs";
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../lib/logger.js";
import { nextTurn } from "../lib/next-turn.js";
import type { PathFilter } from "./filter.js";
import { isGone } from "./fs.js";
import { ancestorIdentities, identityOf, refuseLink } from "./loop-guard.js";
import type { Change } from "./settle.js";
import { WalkQueue } from "./walk-queue.js";

/** Folders entered at once: the walk never takes the whole libuv thread pool, and the event loop stays free. */
const CONCURRENCY = 2;
const YIELD_EVERY = 1_000;

export interface TreeWatchDeps {
  root: string;
  filter: PathFilter;
  logger: Logger;
  /** A media file appeared, changed or vanished, or a watched sub-folder vanished ("removed-dir"). */
  onChange(file: string, folder: string, change: Change): void;
  /** The root itself was removed or moved: the owner checks it. */
  onRootGone(): void;
  /** Logs a skipped folder; the owner says each path once. */
  onSkipped(dir: string, reason: string): void;
}

interface Watched {
  watcher: FSWatcher | undefined;
  identity: string;
}

interface Job {
  report: boolean;
  link: boolean;
}

/**
 * One inotify watch per folder (`fs.watch`), nothing per file: a new entry
 * is stat'ed when its event comes, and a new folder is walked, its media
 * files reported. The walk enters each folder once by device and inode, so a
 * symlink loop or a bind mount of an ancestor is skipped instead of walked
 * forever, and it runs a few folders at a time on the thread pool, so the
 * event loop (HTTP, signals) never waits for it.
 */
export class TreeWatch {
  private readonly watched = new Map<string, Watched>();
  /** Every folder entered, by identity: a second way in is a loop or a duplicate. */
  private seen = new Map<string, string>();
  private readonly queue = new WalkQueue<Job>(
    CONCURRENCY,
    (dir, job) =>
      this.enter(dir, job).catch((error: unknown) =>
        this.deps.logger.warn({ root: this.deps.root, dir, err: String(error) }, "watch walk failed"),
      ),
    (waiting, added) => {
      waiting.report ||= added.report;
    },
  );
  private events: Promise<void> = Promise.resolve();
  private rootReal = "";
  private closed = false;
  private readonly failures = { unwatchable: 0, unreadable: 0, limit: false, example: "" };

  constructor(private readonly deps: TreeWatchDeps) {}

  /** Watches the whole tree; resolves once every folder present now is watched (or on close). */
  async start(): Promise<void> {
    this.rootReal = await realpath(this.deps.root).catch(() => this.deps.root);
    this.seen = await ancestorIdentities(this.rootReal);
    this.enqueue(this.deps.root, { report: false, link: false });
    await this.queue.whenIdle();
  }

  /** Folders that could not be watched or read, for the watcher's status. */
  problem(): string | undefined {
    const { unwatchable, unreadable, limit, example } = this.failures;
    const parts = [
      unwatchable > 0
        ? `cannot watch ${unwatchable} folder(s)${limit ? " (inotify limit reached: raise fs.inotify.max_user_watches)" : ""}`
        : "",
      unreadable > 0 ? `cannot read ${unreadable} folder(s)` : "",
    ].filter((part) => part !== "");
    return parts.length > 0 ? `${parts.join(", ")}, e.g. ${example}` : undefined;
  }

  /** How many folders hold a kernel watch. */
  size(): number {
    return this.watched.size;
  }

  close(): void {
    this.closed = true;
    for (const entry of this.watched.values()) entry.watcher?.close();
    this.watched.clear();
    this.queue.close();
  }

  private enqueue(dir: string, job: Job): void {
    if (!this.watched.has(dir)) this.queue.add(dir, job);
  }

  /** Watches one folder (unless it is a loop or a second way in), then lists it. */
  private async enter(dir: string, job: Job): Promise<void> {
    if (job.link) {
      const refused = await refuseLink(dir, this.rootReal);
      if (refused !== undefined) return this.deps.onSkipped(dir, refused);
    }
    const info = await stat(dir).catch((error: unknown) => this.unreadable(dir, error));
    if (this.closed || !info?.isDirectory() || this.watched.has(dir)) return;
    const identity = identityOf(info);
    const other = this.seen.get(identity);
    if (other !== undefined && other !== dir) {
      if (await this.stillThere(other, identity)) return this.deps.onSkipped(dir, sameAs(other, this.watched.has(other)));
      // The folder was moved here and its old path's event has not been handled yet.
      if (this.watched.has(other)) this.removeDir(other);
      if (this.closed || this.watched.has(dir)) return;
    }
    this.watched.set(dir, { watcher: this.watchDir(dir), identity });
    this.seen.set(identity, dir);
    await this.list(dir, job.report);
  }

  private watchDir(dir: string): FSWatcher | undefined {
    try {
      const watcher = watch(dir, { persistent: false }, (type, name) => this.onEvent(dir, type, name));
      watcher.on("error", (error) => this.deps.logger.debug({ dir, err: String(error) }, "folder watch ended"));
      return watcher;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOSPC") this.failures.limit = true;
      if (!isGone(error)) {
        this.failures.unwatchable++;
        this.failures.example ||= dir;
      }
      return undefined;
    }
  }

  private async list(dir: string, report: boolean): Promise<void> {
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => this.unreadable(dir, error));
    for (const [i, entry] of (entries ?? []).entries()) {
      // A folder of 100,000 entries must not hold the event loop: give it back every so often.
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await nextTurn();
      if (this.closed) return;
      if (entry.isFile()) {
        if (report) this.report(path.join(dir, entry.name), dir, "present");
      } else if (entry.isDirectory()) {
        const full = path.join(dir, entry.name);
        if (!this.deps.filter.skipsDir(full)) this.enqueue(full, { report, link: false });
      } else if (entry.isSymbolicLink() || typeUnknown(entry)) {
        // Symlinks, and filesystems that do not say an entry's type.
        await this.found(dir, path.join(dir, entry.name), report);
      }
    }
  }

  /** An entry of `dir` to look at: a new folder is walked, a file reported when `report` is set. */
  private async found(dir: string, full: string, report: boolean): Promise<void> {
    const own = await lstat(full).catch(() => undefined);
    if (!own || this.closed) return;
    let info: Stats | undefined = own;
    if (own.isSymbolicLink()) {
      info = await stat(full).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === "ELOOP") this.deps.onSkipped(full, "a symlink loop: the link leads back to itself");
        return undefined;
      });
    }
    if (!info || this.closed) return;
    if (info.isDirectory()) {
      if (!this.deps.filter.skipsDir(full)) this.enqueue(full, { report, link: own.isSymbolicLink() });
    } else if (info.isFile() && report) this.report(full, dir, "present");
  }

  private onEvent(dir: string, type: string, name: string | null): void {
    if (this.closed || name === null) return;
    const full = path.join(dir, name);
    // A write to a file: no stat needed. A sub-folder's own change (its times) is nothing to report.
    if (type === "change") {
      if (!this.watched.has(full)) this.report(full, dir, "present");
      return;
    }
    // One at a time, in the kernel's order: a folder moved away is forgotten before it is entered under its new name.
    this.events = this.events
      .then(() => this.onRename(dir, full))
      .catch((error: unknown) => this.deps.logger.warn({ root: this.deps.root, path: full, err: String(error) }, "watch event failed"));
  }

  private async onRename(dir: string, full: string): Promise<void> {
    if (this.closed || !this.watched.has(dir)) return;
    const own = await lstat(full).catch((error: unknown) => (isGone(error) ? null : undefined));
    if (this.closed || own === undefined) return;
    if (own === null) return this.gone(dir, full);
    // A watched folder's name in an event: it was removed or moved and something stands there again, maybe a new
    // folder with the old one's inode number (ext4 reuses them at once), whose watch died with the old folder.
    if (this.watched.has(full)) this.removeDir(full);
    await this.found(dir, full, true);
  }

  private gone(dir: string, full: string): void {
    // An event on the watched folder itself carries its own name.
    if (dir === this.deps.root && path.basename(full) === path.basename(dir)) this.deps.onRootGone();
    if (this.watched.has(full)) return this.removeDir(full);
    // A folder that came and went before it was entered (nothing under it was queued yet).
    this.queue.drop(full);
    this.report(full, dir, "removed");
  }

  /** A watched folder is gone: one "removed-dir" for its parent, and nothing under it stays watched. */
  private removeDir(dir: string): void {
    this.deps.onChange(dir, path.dirname(dir), "removed-dir");
    const prefix = dir + path.sep;
    for (const [known, entry] of this.watched) {
      if (known !== dir && !known.startsWith(prefix)) continue;
      entry.watcher?.close();
      this.watched.delete(known);
      if (this.seen.get(entry.identity) === known) this.seen.delete(entry.identity);
    }
    this.queue.drop(dir, true);
  }

  private report(file: string, folder: string, change: "present" | "removed"): void {
    if (this.deps.filter.isMedia(file)) this.deps.onChange(file, folder, change);
  }

  private async stillThere(dir: string, identity: string): Promise<boolean> {
    const info = await stat(dir).catch(() => undefined);
    return info !== undefined && identityOf(info) === identity;
  }

  private unreadable(dir: string, error: unknown): undefined {
    if (!isGone(error)) {
      this.failures.unreadable++;
      this.failures.example ||= dir;
    }
    return undefined;
  }
}

function sameAs(other: string, watched: boolean): string {
  return watched
    ? `a loop or a second way into ${other}, which is already watched`
    : `a loop: it is ${other}, which holds the watched folder`;
}

/** Filesystems that do not report entry types in a listing: every type test is false. */
function typeUnknown(entry: Dirent): boolean {
  return !entry.isFIFO() && !entry.isSocket() && !entry.isCharacterDevice() && !entry.isBlockDevice();
}
