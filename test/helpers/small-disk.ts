import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmdirSync, rmSync, statfsSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { onTestFinished } from "vitest";

/**
 * A real, small filesystem for full-disk tests: a tmpfs mounted on a folder
 * (root only). tmpfs keeps no blocks reserved for root, so "full" is full for
 * the service too, and filling or freeing it takes microseconds.
 */
export interface SmallDisk {
  /** The mount point. */
  readonly dir: string;
  /** Writes a filler file until the filesystem refuses (ENOSPC); returns the bytes written. */
  fill(): number;
  /** Removes the filler: every byte it held is free again. */
  free(): void;
  /** Bytes free on the filesystem. */
  freeBytes(): number;
  /** Unmounts (lazily when a process still holds a file there); safe to call twice. */
  unmount(): void;
}

const FILLER = ".filler";
const mounted = new Set<string>();

function tryMountTmpfs(dir: string, sizeBytes: number): string | undefined {
  const result = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${sizeBytes},mode=0700`, "tmpfs", dir], { encoding: "utf8" });
  if (result.error) return result.error.message;
  return result.status === 0 ? undefined : (result.stderr || `mount exited with ${result.status}`).trim();
}

function probeMount(): string | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), "scanarr-disk-probe-"));
  try {
    const problem = tryMountTmpfs(dir, 1 << 20);
    if (problem === undefined) spawnSync("umount", [dir]);
    return problem;
  } finally {
    rmdirSync(dir);
  }
}

const mountProblem = probeMount();

/** Small filesystems can be mounted here (root with CAP_SYS_ADMIN); always true under CI=true, where a failing mount must fail the test. */
export const canMountSmallDisk = mountProblem === undefined || Boolean(process.env.CI);
if (!canMountSmallDisk) console.warn(`skipping full-disk tests: cannot mount a tmpfs here (${mountProblem}); they need root`);

/** Mounts a tmpfs of `sizeBytes` on `dir` (created if missing). */
export function mountSmallDisk(dir: string, sizeBytes: number): SmallDisk {
  mkdirSync(dir, { recursive: true });
  const problem = tryMountTmpfs(dir, sizeBytes);
  if (problem !== undefined) throw new Error(`cannot mount a ${sizeBytes}-byte tmpfs on ${dir}: ${problem}`);
  mounted.add(dir);
  const filler = path.join(dir, FILLER);
  return {
    dir,
    fill() {
      const fd = openSync(filler, "a");
      let written = 0;
      try {
        // Big writes first, then page by page: tmpfs allocates whole pages.
        for (const size of [1 << 20, 4096, 1]) {
          const chunk = Buffer.alloc(size, 0x2e);
          for (;;) {
            try {
              const n = writeSync(fd, chunk);
              written += n;
              if (n < size) break;
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === "ENOSPC") break;
              throw error;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
      return written;
    },
    free() {
      rmSync(filler, { force: true });
    },
    freeBytes() {
      const s = statfsSync(dir);
      return s.bavail * s.bsize;
    },
    unmount() {
      unmountSmallDisk(dir);
    },
  };
}

function unmountSmallDisk(dir: string): void {
  if (!mounted.delete(dir)) return;
  if (spawnSync("umount", [dir]).status !== 0) spawnSync("umount", ["-l", dir]);
}

// A test that dies before its afterAll must not leave a mount behind.
process.once("exit", () => {
  for (const dir of [...mounted]) unmountSmallDisk(dir);
});

/** A small disk on a new temporary folder for the running test, unmounted when that test ends. */
export function mountDiskForTest(sizeBytes: number): SmallDisk {
  const disk = mountSmallDisk(path.join(mkdtempSync(path.join(tmpdir(), "scanarr-disk-")), "data"), sizeBytes);
  onTestFinished(() => disk.unmount());
  return disk;
}
