import path from "node:path";
import { watch, type FSWatcher } from "chokidar";
import { Settler, type Change, type PendingFile } from "./settle.js";
import { WatchState } from "./watch-state.js";
import type { WatcherDeps } from "./watcher-deps.js";

export type EventsWatcherDeps = WatcherDeps;

/**
 * Watches a local folder with the kernel's notifications (inotify through
 * chokidar). Changes wait in a Settler; one timer, armed for the earliest
 * due folder or the next health check, flushes them. Before anything is
 * queued the root and the anchors are checked: a folder that vanished or
 * emptied (an unmounted disk) drops what was noted instead of queueing a
 * storm of deletions, and the kernel watch is re-created when it returns.
 */
export class EventsWatcher {
  readonly state: WatchState;
  private readonly settler: Settler;
  private watcher: FSWatcher | undefined;
  private timer: unknown;
  private timerAt = Infinity;
  private nextHealthAt = 0;
  private ticking: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: EventsWatcherDeps) {
    this.state = new WatchState(deps.root.root, deps.logger);
    this.settler = new Settler(deps.root.minAgeMs);
  }

  /** Starts watching (when the root is there) and resolves once the initial tree is known. */
  async start(): Promise<void> {
    await this.tick();
  }

  pending(): PendingFile[] {
    return this.settler.pending();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.deps.clock.clearTimeout(this.timer);
    await this.ticking;
    await this.watcher?.close();
    this.watcher = undefined;
  }

  /** Health check, then queue every due folder; runs on the single timer. */
  tick(): Promise<void> {
    this.ticking ??= this.runTick()
      .catch((error: unknown) => this.deps.logger.error({ root: this.deps.root.root, err: String(error) }, "watch flush failed"))
      .finally(() => {
        this.ticking = undefined;
        this.arm();
      });
    return this.ticking;
  }

  private async runTick(): Promise<void> {
    const { root, clock } = this.deps;
    this.timerAt = Infinity;
    const condition = await this.health();
    if (this.stopped) return;
    this.nextHealthAt = clock.now() + root.intervalMs;
    if (condition !== "ok") {
      this.settler.clear();
      await this.watcher?.close();
      this.watcher = undefined;
      return this.state.set(condition);
    }
    if (!this.watcher) await this.watchRoot();
    this.state.set("ok");
    const due = this.settler.take(clock.now());
    if (due.length === 0) return;
    try {
      await this.deps.emit(due);
    } catch (error) {
      this.settler.restore(due);
      throw error;
    }
  }

  private async health(): Promise<"ok" | "root-missing" | "root-empty" | "anchors-missing"> {
    if (!this.deps.anchorsOk()) return "anchors-missing";
    const entries = await this.deps.fs.readdir(this.deps.root.root).catch(() => undefined);
    if (entries === undefined) return "root-missing";
    return entries.length === 0 ? "root-empty" : "ok";
  }

  private async watchRoot(): Promise<void> {
    const { root, filter } = this.deps;
    const watcher = watch(root.root, { ignoreInitial: true, ignored: (p: string) => p !== root.root && filter.skipsDir(p) });
    const note = (change: Change) => (file: string) => this.note(file, change);
    watcher.on("add", note("present")).on("change", note("present")).on("unlink", note("removed"));
    watcher.on("unlinkDir", (dir: string) => this.noteDir(dir));
    watcher.on("error", (error: unknown) => this.deps.logger.warn({ root: root.root, err: String(error) }, "watch error"));
    await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
    this.watcher = watcher;
  }

  private note(file: string, change: Change): void {
    if (this.stopped || !this.deps.filter.isMedia(file)) return;
    this.settler.note({ file, folder: path.dirname(file), change, notedAt: this.deps.clock.now() });
    this.arm();
  }

  private noteDir(dir: string): void {
    if (this.stopped) return;
    // The root itself going away is a dropped mount, not a deletion: the next health check says so.
    if (dir === this.deps.root.root) return void this.tick();
    if (this.deps.filter.skipsDir(dir)) return;
    this.settler.note({ file: dir, folder: path.dirname(dir), change: "removed-dir", notedAt: this.deps.clock.now() });
    this.arm();
  }

  /** Keeps the one timer at the earliest of the next due folder and the next health check. */
  private arm(): void {
    if (this.stopped || this.ticking) return;
    const at = Math.min(this.settler.nextDueAt() ?? Infinity, this.nextHealthAt);
    if (at >= this.timerAt) return;
    this.deps.clock.clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = this.deps.clock.setTimeout(() => void this.tick(), Math.max(0, at - this.deps.clock.now()));
  }
}
