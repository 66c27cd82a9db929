import path from "node:path";
import { type Clock, systemClock } from "../lib/clock.js";
import { type Logger, silentLogger } from "../lib/logger.js";
import { createMountTable, type MountPointOf } from "./mount-table.js";
import { type ProbeState, type ProbeWorker, startProbeWorker, type WorkerEvents, type WorkerReply } from "./probe-worker.js";

export type { ProbeState } from "./probe-worker.js";

/** What a bounded check found; "timeout" means the path did not answer in time (count it as missing). */
export interface ProbeResult {
  state: ProbeState;
  /** Why, when it is not the plain answer (an I/O error, a stalled mount). */
  error?: string;
}

/** Existence checks that a stalled mount cannot hang. */
export interface PathProbe {
  /**
   * Never rejects; a second call for a path still being checked shares the
   * first answer. `first` puts the check ahead of those waiting (anchors must
   * not wait behind a round of thousands of files).
   */
  check(path: string, options?: { first?: boolean }): Promise<ProbeResult>;
  /** Kills the child process; checks still waiting answer "timeout". */
  close(): Promise<void>;
}

export interface PathProbeOptions {
  /** Bound of one check once sent to the child (default 5 s). */
  timeoutMs?: number;
  /** Checks sent to the child at once; more wait in order (default 16). */
  concurrency?: number;
  clock?: Clock;
  logger?: Logger;
  mountPointOf?: MountPointOf;
  startWorker?: (threads: number, events: WorkerEvents) => ProbeWorker;
}

interface Check {
  id: number;
  path: string;
  resolve(result: ProbeResult): void;
  done: boolean;
  deadline?: number;
  timer?: unknown;
  worker?: ProbeWorker;
}

/**
 * Runs every stat in a child process (probe-child.js): a stat on a stalled
 * FUSE mount holds a libuv thread until the mount answers, so a timeout race
 * in this process would still lose a thread per check. When a check passes
 * its bound the child is killed, checks it held for other paths are sent to a
 * fresh one (keeping their deadlines), and for one more bound every check on
 * the same mount answers "timeout" at once instead of hanging again.
 */
export function createPathProbe(options: PathProbeOptions = {}): PathProbe {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const concurrency = options.concurrency ?? 16;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger();
  const mountPointOf = options.mountPointOf ?? createMountTable(clock);
  const startWorker = options.startWorker ?? startProbeWorker;
  const byPath = new Map<string, Promise<ProbeResult>>();
  const sent = new Map<number, Check>();
  let ahead: Check[] = [];
  let waiting: Check[] = [];
  let head = 0;
  const stalledUntil = new Map<string, number>();
  let worker: ProbeWorker | undefined;
  let nextId = 1;
  let closed = false;
  const seconds = `${timeoutMs / 1000} s`;

  const finish = (check: Check, result: ProbeResult): void => {
    if (check.done) return;
    check.done = true;
    if (check.timer !== undefined) clock.clearTimeout(check.timer);
    sent.delete(check.id);
    check.resolve(result);
  };

  const stalledMount = (file: string): string | undefined => {
    if (stalledUntil.size === 0) return undefined;
    const mount = mountPointOf(file);
    const until = mount === undefined ? undefined : stalledUntil.get(mount);
    if (until === undefined) return undefined;
    if (until > clock.now()) return mount;
    stalledUntil.delete(mount as string);
    logger.debug({ mount }, "checking a mount again after it stalled");
    return undefined;
  };

  const nextWaiting = (): Check | undefined => {
    const fromAhead = ahead.shift();
    if (fromAhead) return fromAhead;
    const check = waiting[head];
    if (check === undefined) return undefined;
    head += 1;
    if (head > 1024 && head * 2 > waiting.length) {
      waiting = waiting.slice(head);
      head = 0;
    }
    return check;
  };

  const pump = (): void => {
    const batch: Check[] = [];
    while (sent.size + batch.length < concurrency) {
      const check = nextWaiting();
      if (!check) break;
      if (check.done) continue;
      const mount = stalledMount(check.path);
      if (mount !== undefined) finish(check, { state: "timeout", error: `the mount ${mount} did not answer a check within ${seconds}` });
      else batch.push(check);
    }
    if (batch.length > 0) {
      worker ??= startWorker(concurrency + 2, events);
      for (const check of batch) {
        check.worker = worker;
        sent.set(check.id, check);
        if (check.deadline === undefined) {
          check.deadline = clock.now() + timeoutMs;
          check.timer = clock.setTimeout(() => onTimeout(check), timeoutMs);
        }
      }
      worker.send(batch.map((c) => ({ id: c.id, path: c.path })));
    }
    worker?.setWaiting(sent.size > 0);
  };

  const dropWorker = (dead: ProbeWorker): Check[] => {
    if (worker === dead) worker = undefined;
    return [...sent.values()].filter((c) => c.worker === dead);
  };

  const onTimeout = (check: Check): void => {
    if (check.done) return;
    const held = check.worker !== undefined && sent.has(check.id);
    finish(check, { state: "timeout", error: `no answer within ${seconds}` });
    if (!held || !check.worker) return;
    const mount = mountPointOf(check.path);
    if (mount !== undefined) {
      if (!stalledUntil.has(mount)) logger.warn({ mount, path: check.path, timeoutMs }, "a path check hung: the mount looks stalled");
      stalledUntil.set(mount, clock.now() + timeoutMs);
    }
    const dead = check.worker;
    const orphans = dropWorker(dead);
    dead.kill();
    for (const orphan of orphans) sent.delete(orphan.id);
    ahead = [...orphans, ...ahead];
    pump();
  };

  const events: WorkerEvents = {
    onReplies(from, replies: WorkerReply[]) {
      for (const reply of replies) {
        const check = sent.get(reply.id);
        if (check?.worker !== from) continue;
        finish(check, reply.error === undefined ? { state: reply.state } : { state: reply.state, error: reply.error });
      }
      pump();
    },
    onExit(dead, expected, why) {
      const orphans = dropWorker(dead);
      if (expected) return;
      // Not re-sent: a child that dies on its own could die again on the same path.
      logger.warn({ why, checks: orphans.length }, "the path probe process ended unexpectedly; it restarts on the next check");
      for (const orphan of orphans) finish(orphan, { state: "timeout", error: why });
      pump();
    },
  };

  return {
    check(raw, checkOptions) {
      if (closed) return Promise.resolve({ state: "timeout", error: "the path probe is closed" });
      if (!path.isAbsolute(raw)) return Promise.resolve({ state: "missing", error: `${JSON.stringify(raw)} is not an absolute path` });
      const key = path.normalize(raw).replace(/(.)\/+$/, "$1");
      const shared = byPath.get(key);
      if (shared) return shared;
      const promise = new Promise<ProbeResult>((resolve) => {
        const check: Check = { id: nextId++, path: key, resolve, done: false };
        if (checkOptions?.first) ahead.push(check);
        else waiting.push(check);
      });
      byPath.set(key, promise);
      void promise.then(() => byPath.delete(key));
      pump();
      return promise;
    },
    async close() {
      closed = true;
      const current = worker;
      worker = undefined;
      current?.kill();
      const all = [...sent.values(), ...ahead, ...waiting.slice(head)];
      for (const check of all) finish(check, { state: "timeout", error: "the path probe is closed" });
    },
  };
}
