import path from "node:path";

/**
 * Folders waiting to be entered, keyed by path, at most `concurrency` at a
 * time, first come first served (a breadth-first walk). A folder added while
 * it waits is not added twice: its jobs are merged.
 */
export class WalkQueue<Job> {
  private readonly waiting = new Map<string, Job>();
  private active = 0;
  private idle: Array<() => void> = [];
  private closed = false;

  constructor(
    private readonly concurrency: number,
    /** Enters one folder; must not reject. */
    private readonly enter: (dir: string, job: Job) => Promise<void>,
    private readonly merge: (waiting: Job, added: Job) => void,
  ) {}

  add(dir: string, job: Job): void {
    if (this.closed) return;
    const waiting = this.waiting.get(dir);
    if (waiting) this.merge(waiting, job);
    else this.waiting.set(dir, job);
    this.pump();
  }

  /** Forgets `dir`, and with `tree` every folder under it. */
  drop(dir: string, tree = false): void {
    this.waiting.delete(dir);
    if (tree) {
      const prefix = dir + path.sep;
      for (const waiting of this.waiting.keys()) if (waiting.startsWith(prefix)) this.waiting.delete(waiting);
    }
    this.settle();
  }

  /** Resolves once nothing waits and nothing is being entered (or on close). */
  whenIdle(): Promise<void> {
    if (this.closed || (this.active === 0 && this.waiting.size === 0)) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  close(): void {
    this.closed = true;
    this.waiting.clear();
    this.settle();
  }

  private pump(): void {
    while (!this.closed && this.active < this.concurrency) {
      const next = this.waiting.entries().next();
      if (next.done) return;
      const [dir, job] = next.value;
      this.waiting.delete(dir);
      this.active++;
      void this.enter(dir, job).finally(() => {
        this.active--;
        this.pump();
        this.settle();
      });
    }
  }

  private settle(): void {
    if (!this.closed && (this.active > 0 || this.waiting.size > 0)) return;
    for (const resolve of this.idle.splice(0)) resolve();
  }
}
