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
  return parseMounts(mountinfo).map((m) => m.point);
}

/** A mount as mountinfo gives it: where it is and its file-system type (`fuse.rclone`, `fuse.mergerfs`, `ext4`). */
export interface Mount {
  point: string;
  type: string;
}

/** Each mountinfo line's mount point (5th field) and type (the field after the ` - ` separator). */
export function parseMounts(mountinfo: string): Mount[] {
  const out: Mount[] = [];
  for (const line of mountinfo.split("\n")) {
    const fields = line.split(" ");
    const point = fields[4];
    const dash = fields.indexOf("-", 6);
    const type = (dash > 0 ? fields[dash + 1] : undefined) ?? "";
    if (point)
      out.push({ point: point.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8))), type });
  }
  return out;
}

/** The mounts of this process now (no caching: for one look, as doctor and setup take). */
export function readMounts(read: () => string | undefined = readMountInfo): Mount[] {
  return parseMounts(read() ?? "");
}

/** The deepest mount holding `path`. */
export function mountOf(mounts: readonly Mount[], path: string): Mount | undefined {
  const point = longestContaining(
    mounts.map((m) => m.point),
    path,
  );
  return mounts.findLast((m) => m.point === point);
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
