import type { PendingFile } from "./settle.js";

export interface WatchStatus {
  root: string;
  mode: "events" | "poll";
  state: string;
  problem?: string;
  pending: number;
}

export interface WatchHandle {
  /** Resolves once every events-mode watcher has set up its kernel watch. */
  ready: Promise<void>;
  status(): WatchStatus[];
  /** What waits for MIN_AGE, by root (tests and the status page). */
  pending(): PendingFile[];
  stop(): Promise<void>;
}

/** The handle of an empty WATCH: nothing watched, nothing to stop. */
export function idleWatchHandle(): WatchHandle {
  return { ready: Promise.resolve(), status: () => [], pending: () => [], stop: async () => undefined };
}
