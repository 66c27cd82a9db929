import { statfsSync } from "node:fs";

/** Bytes the service's user may still write on the disk holding `dir`; Infinity when that cannot be told. */
export function freeBytesOf(dir: string): number {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return Infinity;
  }
}
