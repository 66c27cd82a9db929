import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { messageOf } from "../../lib/errors.js";

export type HashVerdict =
  | { status: "match"; file: string }
  | { status: "mismatch"; file: string; actual: string }
  | { status: "unchecked"; reason: string };

export interface HashCheckOptions {
  /**
   * Where scanarr itself may see the file, best first: the integrator maps
   * the media-server path through SERVER_FILE_EXIST_PATH_MAPPINGS here.
   */
  localPaths(requested: string, serverPath: string): string[];
  /** Longest time a request waits for the digest (stat and read together). */
  timeoutMs?: number;
  /** Files hashed at once; a request finding every slot taken is not checked. */
  maxConcurrent?: number;
  /** The filesystem (tests pass one that hangs like a stalled mount). */
  fs?: HashFs;
}

export interface HashFs {
  stat(file: string): Promise<{ isFile(): boolean }>;
  open(file: string, signal: AbortSignal): NodeJS.ReadableStream;
}

const realFs: HashFs = { stat, open: (file, signal) => createReadStream(file, { signal }) };

export type HashCheck = (requested: string, serverPath: string, expected: string) => Promise<HashVerdict>;

/**
 * autopulse's `hash` check, done while the request waits: the SHA-256 of the
 * file where scanarr can see it, compared with the one the caller sent. A
 * file not visible here, too slow to read, or a check that cannot start is
 * "unchecked" and the request goes on; only a real mismatch refuses it. A
 * slot stays taken until its stat or read really ends (a hung mount may
 * never answer), so at most `maxConcurrent` threads can ever be stuck here.
 */
export function createHashCheck(options: HashCheckOptions): HashCheck {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const maxConcurrent = options.maxConcurrent ?? 2;
  let busy = 0;
  return async (requested, serverPath, expected) => {
    if (busy >= maxConcurrent) return { status: "unchecked", reason: "other files are being hashed; not checked" };
    busy += 1;
    const abort = new AbortController();
    const work = digestFirstVisible(options.fs ?? realFs, unique(options.localPaths(requested, serverPath)), abort.signal).finally(() => {
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
      return { status: "unchecked", reason: `reading the file took longer than ${timeoutMs / 1000} s; not checked` };
    }
    if ("error" in found) return { status: "unchecked", reason: `the file could not be read: ${describe(found.error)}` };
    if (found.file === undefined) return { status: "unchecked", reason: "the file is not visible to scanarr; not checked" };
    return found.digest === expected
      ? { status: "match", file: found.file }
      : { status: "mismatch", file: found.file, actual: found.digest };
  };
}

async function digestFirstVisible(fs: HashFs, candidates: string[], signal: AbortSignal): Promise<{ file?: string; digest: string }> {
  for (const file of candidates) {
    const info = await fs.stat(file).catch(() => undefined);
    if (signal.aborted) break;
    if (!info?.isFile()) continue;
    const hash = createHash("sha256");
    await pipeline(fs.open(file, signal), hash);
    return { file, digest: hash.digest("hex") };
  }
  return { digest: "" };
}

function unique(paths: string[]): string[] {
  return [...new Set(paths.filter((p) => p !== ""))];
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ?? messageOf(error);
}
