import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";

export interface AtomicWriteOptions {
  /** Mode of a new file. An existing file keeps its mode unless `forceMode`. */
  mode?: number;
  forceMode?: boolean;
}

/**
 * Writes `data` to `file` through a temp file in the same folder, fsync and
 * rename, so a crash leaves either the old or the new content, never half.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  let mode = options.mode ?? 0o600;
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
