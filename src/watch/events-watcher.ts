import { Settler, type Change, type PendingFile } from "./settle.js";
import { TreeWatch } from "./tree-watch.js";
import { WatchState } from "./watch-state.js";
import type { WatcherDeps } from "./watcher-deps.js";

export type EventsWatcherDeps = WatcherDeps;

/**
 * Watches a local folder with the kernel's notifications (inotify, one watch
 * per folder: TreeWatch). Changes wait in a Settler; one timer, armed for the earliest
 * due folder or the next health check, flushes them. Before anything is
 * queued the root and the anchors are checked: a folder that vanished or
 * emptied (an unmounted disk) drops what was noted instead of queueing a
 * storm of deletions, and the kernel watch is re-created when it returns.
 */
export class EventsWatcher {
  readonly state: WatchState;
  private readonly settler: Settler;
  private tree: TreeWatch | undefined;
  /** Paths already logged as skipped (loops): each is said once, however often the tree is walked. */
  private readonly skipped = new Set<string>();
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

  /** Stops at once: a walk in progress ends; a flush in progress is waited for, at most `graceMs`. */
  async stop(graceMs = 2_000): Promise<void> {
    this.stopped = true;
    this.deps.clock.clearTimeout(this.timer);
    this.tree?.close();
    if (this.ticking) await Promise.race([this.ticking, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    this.tree?.close();
    this.tree = undefined;
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
      this.tree?.close();
      this.tree = undefined;
      return this.state.set(condition);
    }
    const tree = this.tree ?? (await this.watchRoot());
    if (this.stopped) return;
    this.state.set("ok", tree.problem());
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

  /** Sets up the kernel watches; resolves once every folder there now is watched (or on stop). */
  private async watchRoot(): Promise<TreeWatch> {
    const { root, filter, logger } = this.deps;
    const tree = new TreeWatch({
      root: root.root,
      filter,
      logger,
      onChange: (file, folder, change) => this.note(file, folder, change),
      // The root itself going away is a dropped mount, not a deletion: a health check right after this tick says so.
      onRootGone: () => {
        this.nextHealthAt = this.deps.clock.now();
        void this.tick();
      },
      onSkipped: (dir, reason) => {
        if (this.skipped.has(dir)) return;
        this.skipped.add(dir);
        logger.warn({ root: root.root, path: dir }, `watched folder skipped: ${reason}`);
      },
    });
    this.tree = tree;
    const started = performance.now();
    await tree.start();
    if (!this.stopped)
      logger.info({ root: root.root, folders: tree.size(), ms: Math.round(performance.now() - started) }, "watching every folder");
    return tree;
  }

  private note(file: string, folder: string, change: Change): void {
    if (this.stopped) return;
    this.settler.note({ file, folder, change, notedAt: this.deps.clock.now() });
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
