import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import type { LocalPath } from "../../paths/local.js";
import { isWithin } from "../../paths/index.js";
import { messageOf } from "../../lib/errors.js";

/**
 * What the check found. Only "match" depends on what the file holds: a file
 * that is missing, is no regular file, leads out of its library through a
 * symbolic link, is too big or too slow to read, or differs, is one
 * "refused", so the caller cannot tell whether a path exists. `detail` says
 * which for the operator's log and is never sent. "unchecked" means nothing
 * of the file was looked at; its reason may be sent.
 */
export type HashVerdict = { status: "match" } | { status: "refused"; detail: string } | { status: "unchecked"; reason: string };

export interface HashCheckOptions {
  /** Where scanarr sees a media-server path: SERVER_FILE_EXIST_PATH_MAPPINGS applied (createLocalPathMapper). */
  toLocal(serverPath: string): LocalPath;
  /** Longest time a request waits for the digest (realpath, open and read together). */
  timeoutMs?: number;
  /** Files hashed at once; a request finding every slot taken is not checked. */
  maxConcurrent?: number;
  /** Largest file read; a bigger one is refused unread. */
  maxBytes?: number;
  /** The filesystem (tests pass one that hangs like a stalled mount, or counts digests). */
  fs?: HashFs;
}

export interface HashFs {
  realpath(path: string): Promise<string>;
  /**
   * The SHA-256 (hex) of the regular file `file` when it holds at most
   * `maxBytes`; undefined, without reading, for anything else: a folder, a
   * FIFO, a device, a symbolic link, a bigger file.
   */
  digest(file: string, maxBytes: number, signal: AbortSignal): Promise<string | undefined>;
}

/** Checks the file at `serverPath` (already known to be in a library) against `expected`; `roots` are its libraries' locations. */
export type HashCheck = (serverPath: string, roots: readonly string[] | undefined, expected: string) => Promise<HashVerdict>;

/** Hashing reads about 1 GB/s on a local disk: a bigger file would not be read within the time box anyway. */
export const HASH_MAX_BYTES = 16 * 1024 ** 3;

/** The real filesystem. */
export const nodeHashFs: HashFs = {
  realpath,
  async digest(file, maxBytes, signal) {
    // The path was just resolved: a symbolic link at its end now is a swap. A FIFO must not make open wait for a writer.
    const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile() || info.size > maxBytes) return undefined;
      const hash = createHash("sha256");
      await pipeline(handle.createReadStream({ autoClose: false, end: maxBytes - 1 }), hash, { signal });
      return hash.digest("hex");
    } finally {
      await handle.close();
    }
  },
};

/**
 * autopulse's `hash` check, done while the request waits, and only on a file
 * inside one of its libraries: the file's local path and each library's are
 * resolved through symbolic links, and the file must still lie inside one.
 * A slot stays taken until its filesystem calls really end (a hung mount may
 * never answer), so at most `maxConcurrent` threads can ever be stuck here.
 */
export function createHashCheck(options: HashCheckOptions): HashCheck {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const maxConcurrent = options.maxConcurrent ?? 2;
  const maxBytes = options.maxBytes ?? HASH_MAX_BYTES;
  const fs = options.fs ?? nodeHashFs;
  let busy = 0;
  return async (serverPath, roots, expected) => {
    if (roots === undefined) return unchecked("the media server's libraries are not known yet");
    const local = options.toLocal(serverPath);
    const localRoots = roots.flatMap((root) => {
      const seen = options.toLocal(root);
      return "path" in local && "path" in seen && isWithin(seen.path, local.path) ? [seen.path] : [];
    });
    if (!("path" in local) || localRoots.length === 0) {
      return unchecked("scanarr has no local path for the file or its library (SERVER_FILE_EXIST_PATH_MAPPINGS)");
    }
    if (busy >= maxConcurrent) return unchecked("other files are being hashed");
    busy += 1;
    const abort = new AbortController();
    const progress = { readingFile: false };
    const work = look(fs, { file: local.path, roots: localRoots, maxBytes, expected }, progress, abort.signal).finally(() => {
      busy -= 1;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), timeoutMs);
    });
    const found = await Promise.race([work.catch((error: unknown) => ({ error })), late]);
    clearTimeout(timer);
    if (found === "late") {
      abort.abort();
      const took = `did not answer within ${timeoutMs / 1000} s`;
      return progress.readingFile ? refused(`the file ${took}`) : unchecked(`the file's library folder ${took}`);
    }
    if ("error" in found) return refused(`the file could not be read: ${describe(found.error)}`);
    return found;
  };
}

interface Look {
  file: string;
  roots: string[];
  maxBytes: number;
  expected: string;
}

async function look(fs: HashFs, job: Look, progress: { readingFile: boolean }, signal: AbortSignal): Promise<HashVerdict> {
  const roots = await Promise.all(job.roots.map((root) => fs.realpath(root).catch(() => undefined)));
  const visible = roots.filter((root): root is string => root !== undefined);
  // Whether a library's folder is there says nothing about the file; from here on, every outcome but a match is one answer.
  if (visible.length === 0) return unchecked("the file's library folder is not visible to scanarr");
  // Past the time box the caller has its answer already: go no further.
  signal.throwIfAborted();
  progress.readingFile = true;
  const real = await fs.realpath(job.file).catch(() => undefined);
  if (real === undefined) return refused("no such file");
  if (!visible.some((root) => isWithin(root, real))) return refused("its symbolic links lead out of its library");
  signal.throwIfAborted();
  const digest = await fs.digest(real, job.maxBytes, signal);
  if (digest === undefined) return refused(`not a regular file of at most ${job.maxBytes} bytes`);
  return digest === job.expected ? { status: "match" } : refused("its SHA-256 differs");
}

function unchecked(why: string): HashVerdict {
  return { status: "unchecked", reason: `${why}; not checked` };
}

function refused(detail: string): HashVerdict {
  return { status: "refused", detail };
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ?? messageOf(error);
}
