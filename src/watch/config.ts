import path from "node:path";
import type { WatchEntry } from "../config/types.js";

/** The values a WATCH entry's optional keys take when absent. */
export const WATCH_DEFAULTS = { MODE: "events", MIN_AGE: 60, INTERVAL: 60, DETECT: "auto" } as const;

/** One watched folder with every setting resolved. */
export interface WatchRoot {
  root: string;
  mode: "events" | "poll";
  minAgeMs: number;
  /** Poll mode: time between rounds. Events mode: how often the root and anchors are re-checked. */
  intervalMs: number;
  detect: "auto" | "mtime" | "listing";
  ignore: RegExp[];
}

/** Every PATHS entry of every WATCH entry becomes one root (rules.ts already refused overlaps). */
export function resolveWatchRoots(entries: readonly WatchEntry[]): WatchRoot[] {
  return entries.flatMap((entry) =>
    entry.PATHS.map((raw) => ({
      root: path.resolve(raw),
      mode: entry.MODE ?? WATCH_DEFAULTS.MODE,
      minAgeMs: (entry.MIN_AGE ?? WATCH_DEFAULTS.MIN_AGE) * 1000,
      intervalMs: (entry.INTERVAL ?? WATCH_DEFAULTS.INTERVAL) * 1000,
      detect: entry.DETECT ?? WATCH_DEFAULTS.DETECT,
      ignore: (entry.IGNORE ?? []).map((pattern) => new RegExp(pattern)),
    })),
  );
}
