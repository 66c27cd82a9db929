import path from "node:path";

/**
 * Folders waiting to be entered, keyed by path, at most `concurrency` at a
 * time, first come first served (a breadth-first walk). A folder added while
 * it waits is not added twice: its jobs are merged.
 */
export class WalkQueue<Job> {
  private readonly waiting = new Map<string, Job>();
  /** Arrival order. A Map alone would do, but taking its first entry over and over after deletes is quadratic in V8. */
  private order: string[] = [];
  private head = 0;
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
    else {
      this.waiting.set(dir, job);
      this.order.push(dir);
    }
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
    this.order = [];
    this.settle();
  }

  private pump(): void {
    while (!this.closed && this.active < this.concurrency) {
      const next = this.take();
      if (!next) return;
      const [dir, job] = next;
      this.active++;
      void this.enter(dir, job).finally(() => {
        this.active--;
        this.pump();
        this.settle();
      });
    }
  }

  /** The oldest folder still waiting (dropped ones are skipped). */
  private take(): [string, Job] | undefined {
    while (this.head < this.order.length) {
      const dir = this.order[this.head++] as string;
      const job = this.waiting.get(dir);
      if (job === undefined) continue;
      this.waiting.delete(dir);
      if (this.head > 1_024 && this.head * 2 > this.order.length) {
        this.order = this.order.slice(this.head);
        this.head = 0;
      }
      return [dir, job];
    }
    this.order = [];
    this.head = 0;
    return undefined;
  }

  private settle(): void {
    if (!this.closed && (this.active > 0 || this.waiting.size > 0)) return;
    for (const resolve of this.idle.splice(0)) resolve();
  }
}
