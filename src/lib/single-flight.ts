/**
 * Concurrent callers share one run: while `run`'s work is under way, every
 * call gets the same promise; the first call after it settles starts a new
 * one. A caller arriving mid-run gets the running answer, so this is for work
 * whose answer is as good a moment later (a fetch, a hash check), not for a
 * look that must begin after the caller asked (see mount/anchors.ts).
 */
export class SingleFlight<T> {
  private current: Promise<T> | undefined;

  /** True while a run is under way. */
  get running(): boolean {
    return this.current !== undefined;
  }

  /** The running promise, or `work()` started now (called only then). */
  run(work: () => Promise<T>): Promise<T> {
    if (this.current) return this.current;
    const started = work().finally(() => {
      if (this.current === started) this.current = undefined;
    });
    this.current = started;
    return started;
  }
}

/** SingleFlight per key: callers with the same key share one run, other keys run apart. */
export class KeyedSingleFlight<K, T> {
  private readonly runs = new Map<K, Promise<T>>();

  /** The run under way for `key`, if any (a caller that must decide before joining it). */
  get(key: K): Promise<T> | undefined {
    return this.runs.get(key);
  }

  run(key: K, work: () => Promise<T>): Promise<T> {
    const running = this.runs.get(key);
    if (running) return running;
    const started = work().finally(() => {
      if (this.runs.get(key) === started) this.runs.delete(key);
    });
    this.runs.set(key, started);
    return started;
  }
}
