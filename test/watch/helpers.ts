import { mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { EnqueueOutcome, ScanRequest, ScanSink } from "../../src/domain.js";
import { createIngest } from "../../src/ingest/pipeline.js";
import { ManualClock } from "../../src/lib/clock.js";
import { createLogger, type Logger } from "../../src/lib/logger.js";
import { createPathMapper } from "../../src/paths/index.js";
import { emitDueFolders } from "../../src/watch/emit.js";
import { EventsWatcher } from "../../src/watch/events-watcher.js";
import { createPathFilter } from "../../src/watch/filter.js";
import type { DueFolder } from "../../src/watch/settle.js";
import { nodeWatchFs, type WatchFs } from "../../src/watch/fs.js";

/** A sink that records what the watcher queued. */
export function recordingSink(): ScanSink & { requests: ScanRequest[] } {
  const requests: ScanRequest[] = [];
  return {
    requests,
    async enqueue(batch): Promise<EnqueueOutcome> {
      // What the way in names; the paths behind each (origins, for `scanarr status`) are tested in test/ingest.
      requests.push(...batch.map(({ origins: _, ...r }) => r));
      return { queued: batch.map((r) => r.folder), covered: [] };
    },
  };
}

/** A watcher's emit through the way in, with no mappings and no library check. */
export function emitTo(sink: ScanSink, logger: Logger, ignoreList: readonly string[] = []): (due: DueFolder[]) => Promise<unknown> {
  const ingest = createIngest({ mapper: createPathMapper({}), ignoreList, sink });
  return (due) => emitDueFolders(due, { ingest, logger });
}

/** The real filesystem, counting the calls a round makes. */
export function countingFs(inner: WatchFs = nodeWatchFs): WatchFs & { stats: number; readdirs: number; reset(): void } {
  const counter = {
    stats: 0,
    readdirs: 0,
    reset() {
      counter.stats = 0;
      counter.readdirs = 0;
    },
    stat(p: string) {
      counter.stats += 1;
      return inner.stat(p);
    },
    readdir(p: string) {
      counter.readdirs += 1;
      return inner.readdir(p);
    },
  };
  return counter;
}

export const quietLogger = () => createLogger({ level: "silent" });

/** Writes `files` (paths relative to `root`) with a little content each. */
export function writeTree(root: string, files: string[]): void {
  for (const rel of files) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `content of ${rel}`);
  }
}

/** Sets every folder's and file's times an hour back, deepest first: a library that has been there a while. */
export function ageTree(root: string, seconds = 3600): void {
  const when = new Date(Date.now() - seconds * 1000);
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else utimesSync(full, when, when);
    }
    utimesSync(dir, when, when);
  };
  visit(root);
}

export function countDirs(root: string): number {
  let count = 1;
  for (const entry of readdirSync(root, { withFileTypes: true })) if (entry.isDirectory()) count += countDirs(path.join(root, entry.name));
  return count;
}

export function sizeOf(file: string): number {
  return statSync(file).size;
}

/** After the root came back: the round sees it "ok", and nothing was or will be queued. */
export async function expectBackWithNothingRecorded(
  watcher: { runRound(): Promise<void>; state: { condition: string }; pending(): unknown[] },
  clock: { advance(ms: number): void },
  requests: unknown[],
  minAgeMs: number,
): Promise<void> {
  await watcher.runRound();
  expect(watcher.state.condition).toBe("ok");
  clock.advance(minAgeMs);
  await watcher.runRound();
  expect(requests).toEqual([]);
  expect(watcher.pending()).toEqual([]);
}

/** An events-mode watcher of `root` on a ManualClock, queueing into a recording sink; not started. */
export function eventsWatcherOf(root: string, options: { minAgeMs: number; intervalMs: number; logger?: Logger; ignore?: RegExp[] }) {
  const clock = new ManualClock();
  const sink = recordingSink();
  const logger = options.logger ?? quietLogger();
  const watcher = new EventsWatcher({
    root: {
      root,
      mode: "events",
      minAgeMs: options.minAgeMs,
      intervalMs: options.intervalMs,
      detect: "auto",
      ignore: options.ignore ?? [],
    },
    fs: nodeWatchFs,
    filter: createPathFilter(options.ignore ?? [], []),
    clock,
    logger,
    anchorsOk: () => true,
    emit: emitTo(sink, logger),
  });
  const pendingFiles = () => watcher.pending().map((p) => p.file);
  return { watcher, clock, sink, pendingFiles };
}
