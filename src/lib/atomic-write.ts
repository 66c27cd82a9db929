import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";

export interface AtomicWriteOptions {
  /** Mode of a new file. An existing file keeps its mode unless `forceMode`. */
  mode?: number;
  forceMode?: boolean;
  /**
   * Mode of the folders created for the file: 0700 by default when the file
   * is private (no group or other bit in `mode`), so no one else can list or
   * watch the folder of a secret; folders that exist are left as they are.
   */
  dirMode?: number;
}

/**
 * Writes `data` to `file` through a temp file in the same folder, fsync and
 * rename, so a crash leaves either the old or the new content, never half.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(file);
  let mode = options.mode ?? 0o600;
  await mkdir(dir, { recursive: true, mode: options.dirMode ?? ((mode & 0o077) === 0 ? 0o700 : 0o777) });
  if (!options.forceMode) {
    const existing = await stat(file).catch(() => undefined);
    if (existing) mode = existing.mode & 0o7777;
  }
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(tmp, "wx", mode);
  try {
    await handle.writeFile(data);
    await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
