import type Database from "better-sqlite3";
import type { WatchEntry } from "../config/types.js";
import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { Ingest } from "../ingest/pipeline.js";
import { resolveWatchRoots } from "./config.js";
import { emitDueFolders } from "./emit.js";
import { idleWatchHandle, type WatchHandle } from "./handle.js";
import { EventsWatcher } from "./events-watcher.js";
import { createPathFilter } from "./filter.js";
import { nodeWatchFs, type WatchFs } from "./fs.js";
import { PollWatcher } from "./poll-watcher.js";
import { WatchStore } from "./store.js";

export type { WatchHandle, WatchStatus } from "./handle.js";

export interface WatchDeps {
  entries: readonly WatchEntry[];
  /** The shared service database; the watchers keep their state in watch_* tables. */
  db: Database.Database;
  /** The one way in; it maps, applies SERVER_IGNORE_LIST and checks the libraries. */
  ingest: Ingest;
  /** SERVER_IGNORE_LIST, also used to skip ignored folders before they are watched. */
  ignoreList: readonly string[];
  clock: Clock;
  logger: Logger;
  /** False while a mount anchor is missing (wired to the anchor check); nothing is recorded meanwhile. */
  anchorsOk?: () => boolean;
  fs?: WatchFs;
}

/** Starts one watcher per WATCH path; an empty WATCH starts nothing and opens no table. */
export function startWatchers(deps: WatchDeps): WatchHandle {
  const roots = resolveWatchRoots(deps.entries);
  if (roots.length === 0) return idleWatchHandle();
  const logger = deps.logger.child({ component: "watch" });
  const fs = deps.fs ?? nodeWatchFs;
  const anchorsOk = deps.anchorsOk ?? (() => true);
  const emit = (due: Parameters<typeof emitDueFolders>[0]) => emitDueFolders(due, { ingest: deps.ingest, logger });
  const store = new WatchStore(deps.db);
  const watchers = roots.map((root) => {
    const common = { root, fs, filter: createPathFilter(root.ignore, deps.ignoreList), clock: deps.clock, logger, anchorsOk, emit };
    return root.mode === "poll" ? new PollWatcher({ ...common, store }) : new EventsWatcher(common);
  });
  // Not awaited: the kernel watch of a big tree takes a while to set up, and webhooks must not wait for it.
  const ready = Promise.all(watchers.map((w) => (w instanceof PollWatcher ? w.start() : w.start()))).then(() => undefined);
  logger.info({ roots: roots.map((r) => `${r.root} (${r.mode})`) }, "watching folders");
  return {
    ready,
    status: () =>
      watchers.map((w, i) => ({
        root: roots[i]?.root ?? "",
        mode: roots[i]?.mode ?? "events",
        state: w.state.condition,
        ...(w.state.problem ? { problem: w.state.problem } : {}),
        pending: w.pending().length,
      })),
    pending: () => watchers.flatMap((w) => w.pending()),
    stop: async () => {
      await Promise.all(watchers.map((w) => w.stop()));
    },
  };
}
