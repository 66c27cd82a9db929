import { closeSync, openSync, rmSync, statSync, writeSync } from "node:fs";

/** Bytes kept aside on the database's disk for the writes that must not wait for space (1 MiB). */
export const RESERVE_BYTES = 1024 * 1024;

/**
 * A file of zeros beside the database, written while the disk has room and
 * deleted the moment it fills: the bytes it gave back let the outcomes of
 * deliveries already under way be recorded, so a target that accepted a scan
 * is not asked again after a restart. Best effort: another program writing to
 * the same disk may take the bytes first, and a file system that compresses
 * or deduplicates zeros (ZFS, btrfs) keeps less than it seems.
 */
export interface SpaceReserve {
  /** Makes the file whole again; false (and no file) when the disk has no room for it. */
  ensure(): boolean;
  /** Deletes the file; the bytes it gave back (0 when there was none). */
  release(): number;
}

export function createSpaceReserve(file: string, bytes = RESERVE_BYTES): SpaceReserve {
  const sizeOf = () => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  return {
    ensure() {
      if (sizeOf() >= bytes) return true;
      let fd: number | undefined;
      try {
        fd = openSync(file, "w", 0o600);
        const chunk = Buffer.alloc(64 * 1024);
        for (let written = 0; written < bytes; written += chunk.length) writeSync(fd, chunk);
        return true;
      } catch {
        if (fd !== undefined) closeSync(fd);
        fd = undefined;
        rmSync(file, { force: true });
        return false;
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    },
    release() {
      const size = sizeOf();
      rmSync(file, { force: true });
      return size;
    },
  };
}
