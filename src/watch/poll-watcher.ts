import { detectChanges } from "./detect.js";
import type { WatchFs } from "./fs.js";
import { runPollRound, type Observed } from "./poll-round.js";
import { Settler, type PendingFile } from "./settle.js";
import type { DirSnap, WatchStore } from "./store.js";
import { WatchState } from "./watch-state.js";
import type { WatcherDeps } from "./watcher-deps.js";
import { messageOf } from "../lib/errors.js";

export interface PollWatcherDeps extends WatcherDeps {
  store: WatchStore;
  /** Wall-clock time, compared with folder times (not the injected clock). */
  wallNow?: () => number;
}

/**
 * Polls one folder tree in rounds, INTERVAL apart, with one timer. A round
 * that finds the root missing or empty, or an anchor missing, records
 * nothing and leaves the snapshot as it was, so a dropped mount that comes
 * back looks unchanged instead of deleted and re-added.
 */
export class PollWatcher {
  readonly state: WatchState;
  private readonly settler: Settler;
  private snapshot: Map<string, DirSnap>;
  private detect: "mtime" | "listing" | undefined;
  private timer: unknown;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: PollWatcherDeps) {
    this.state = new WatchState(deps.root.root, deps.logger);
    this.settler = new Settler(deps.root.minAgeMs);
    this.snapshot = deps.store.loadSnapshot(deps.root.root);
    for (const entry of deps.store.loadPending(deps.root.root)) this.settler.note(entry);
    this.detect = deps.root.detect === "auto" ? undefined : deps.root.detect;
  }

  start(): void {
    this.schedule(0);
  }

  /** Runs a round now, or joins the one running. Never rejects. */
  runRound(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= this.round()
      .catch((error: unknown) => this.deps.logger.error({ root: this.deps.root.root, err: messageOf(error) }, "watch round failed"))
      .finally(() => {
        this.running = undefined;
        this.schedule(this.deps.root.intervalMs);
      });
    return this.running;
  }

  pending(): PendingFile[] {
    return this.settler.pending();
  }

  /** Stops the rounds; a round stuck on a hung mount is not waited for beyond `graceMs`. */
  async stop(graceMs = 2_000): Promise<void> {
    this.stopped = true;
    this.deps.clock.clearTimeout(this.timer);
    if (this.running) await Promise.race([this.running, new Promise((r) => setTimeout(r, graceMs).unref())]);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.deps.clock.clearTimeout(this.timer);
    this.timer = this.deps.clock.setTimeout(() => void this.runRound(), ms);
  }

  private async round(): Promise<void> {
    const { root, fs, filter, anchorsOk } = this.deps;
    if (!anchorsOk()) return this.state.set("anchors-missing");
    this.detect ??= await detectChanges(root.root);
    const input = { root: root.root, snapshot: this.snapshot, detect: this.detect, filter, fs, wallNow: this.deps.wallNow ?? Date.now };
    const result = await runPollRound(input);
    if (result.outcome !== "ok") return this.state.set(result.outcome);
    const observed = [...result.observed, ...(await this.recheckGrowing(result.statted))];
    // Deletions are what a dropping mount produces: make sure it is still there before believing them.
    if (observed.some((o) => o.change !== "present")) {
      const again = await runRootCheck(fs, root.root);
      if (again !== "ok") return this.state.set(again);
      if (!anchorsOk()) return this.state.set("anchors-missing");
    }
    if (this.stopped) return;
    const now = this.deps.clock.now();
    const notes: PendingFile[] = observed.map((o) => ({ ...o, notedAt: now }));
    this.deps.store.commitRound(root.root, result.upserts, result.deletes, notes);
    for (const dir of result.deletes) this.snapshot.delete(dir);
    for (const [dir, snap] of result.upserts) this.snapshot.set(dir, snap);
    for (const note of notes) this.settler.note(note);
    this.state.set(
      "ok",
      result.unreadable.length > 0 ? `cannot read ${result.unreadable.length} folder(s), e.g. ${result.unreadable[0]}` : undefined,
    );
    await this.flush();
  }

  /** New files seen in earlier rounds may still be growing: compare them again (only them). */
  private async recheckGrowing(statted: ReadonlySet<string>): Promise<Observed[]> {
    const changed: Observed[] = [];
    for (const entry of this.settler.pending()) {
      if (entry.change !== "present" || statted.has(entry.file)) continue;
      const info = await this.deps.fs.stat(entry.file).catch(() => undefined);
      if (!info) changed.push({ file: entry.file, folder: entry.folder, change: "removed" });
      else if (!entry.mark || entry.mark.size !== info.size || entry.mark.mtimeMs !== info.mtimeMs) {
        changed.push({ file: entry.file, folder: entry.folder, change: "present", mark: { size: info.size, mtimeMs: info.mtimeMs } });
      }
    }
    return changed;
  }

  private async flush(): Promise<void> {
    const due = this.settler.take(this.deps.clock.now());
    if (due.length === 0) return;
    try {
      await this.deps.emit(due);
      this.deps.store.forgetPending(due.flatMap((d) => d.entries.map((e) => e.file)));
    } catch (error) {
      this.settler.restore(due);
      throw error;
    }
  }
}

async function runRootCheck(fs: WatchFs, root: string): Promise<"ok" | "root-missing" | "root-empty"> {
  const entries = await fs.readdir(root).catch(() => undefined);
  if (entries === undefined) return "root-missing";
  return entries.length === 0 ? "root-empty" : "ok";
}
