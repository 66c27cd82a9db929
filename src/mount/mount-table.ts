import { readFileSync } from "node:fs";
import type { Clock } from "../lib/clock.js";

/** Finds the mount a path lives on, to fail fast on every path of a mount that just hung. */
export type MountPointOf = (path: string) => string | undefined;

/**
 * Mount points from /proc/self/mountinfo, re-read at most every `ttlMs`. The
 * kernel answers that file from its own tables, so reading it never waits on
 * a FUSE daemon, stalled or not. Without /proc every answer is undefined.
 */
export function createMountTable(clock: Pick<Clock, "now">, ttlMs = 10_000, read: () => string | undefined = readMountInfo): MountPointOf {
  let points: string[] = [];
  let readAt = Number.NEGATIVE_INFINITY;
  return (path) => {
    if (clock.now() - readAt >= ttlMs) {
      points = parseMountPoints(read() ?? "");
      readAt = clock.now();
    }
    return longestContaining(points, path);
  };
}

/** The mount point field (5th) of each mountinfo line, octal escapes decoded. */
export function parseMountPoints(mountinfo: string): string[] {
  const out: string[] = [];
  for (const line of mountinfo.split("\n")) {
    const field = line.split(" ")[4];
    if (field) out.push(field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8))));
  }
  return out;
}

function longestContaining(points: readonly string[], path: string): string | undefined {
  let best: string | undefined;
  for (const point of points) {
    const inside = point === "/" ? path.startsWith("/") : path === point || path.startsWith(`${point}/`);
    if (inside && (best === undefined || point.length > best.length)) best = point;
  }
  return best;
}

function readMountInfo(): string | undefined {
  try {
    return readFileSync("/proc/self/mountinfo", "utf8");
  } catch {
    return undefined;
  }
}
