import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from "node:fs";
import { open } from "node:fs/promises";

/** The largest config file, key file or secret scanarr reads whole: far above any real one. */
export const TEXT_FILE_MAX_BYTES = 4 * 1024 * 1024;

/** A FIFO must not make open wait for a writer; a regular file reads the same. */
const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * A file the user named that is not a small regular file: a folder (code
 * EISDIR), a FIFO, device or socket (ENOTFILE; /dev/zero would be read until
 * memory runs out, a FIFO would wait for a writer), or one over the bound
 * (EFBIG).
 */
export class TextFileError extends Error {
  override name = "TextFileError";
  constructor(
    readonly code: "EISDIR" | "ENOTFILE" | "EFBIG",
    message: string,
  ) {
    super(message);
  }
}

function checkStats(info: Stats, maxBytes: number): void {
  if (info.isDirectory()) throw new TextFileError("EISDIR", "it is a folder");
  if (!info.isFile()) throw new TextFileError("ENOTFILE", "it is not a regular file (a FIFO, a device or a socket)");
  if (info.size > maxBytes) throw new TextFileError("EFBIG", `it is larger than ${Math.round(maxBytes / 1024)} KiB`);
}

/** Reads a regular file of at most `maxBytes` as UTF-8; anything else throws (TextFileError, or the open's own error: ENOENT, EACCES). */
export async function readTextFile(file: string, maxBytes = TEXT_FILE_MAX_BYTES): Promise<string> {
  const handle = await open(file, FLAGS);
  try {
    checkStats(await handle.stat(), maxBytes);
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/** readTextFile, synchronously (the config loader's SCANARR_<KEY>_FILE). */
export function readTextFileSync(file: string, maxBytes = TEXT_FILE_MAX_BYTES): string {
  const fd = openSync(file, FLAGS);
  try {
    checkStats(fstatSync(fd), maxBytes);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

const READ_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  EACCES: "permission denied (it must be readable by the user scanarr runs as)",
  EISDIR: "it is a folder",
};

/** Why a file could not be read, in words (readTextFile's errors, or any other). */
export function describeReadError(error: unknown): string {
  if (error instanceof TextFileError) return error.message;
  const { code, message } = error as NodeJS.ErrnoException;
  return READ_ERRORS[code ?? ""] ?? code ?? message;
}
