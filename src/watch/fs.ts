import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";

export interface WatchStat {
  isDirectory(): boolean;
  isFile(): boolean;
  mtimeMs: number;
  size: number;
  dev: number;
  ino: number;
}

/** The two filesystem calls a poll round makes; tests count them through this seam. */
export interface WatchFs {
  stat(path: string): Promise<WatchStat>;
  readdir(path: string): Promise<Dirent[]>;
}

export const nodeWatchFs: WatchFs = {
  stat: (p) => stat(p),
  readdir: (p) => readdir(p, { withFileTypes: true }),
};

/** Errors that mean "this path is not there (any more)". */
export function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}
