import { randomUUID } from "node:crypto";
import { readTextFile } from "../lib/text-file.js";
import path from "node:path";
import { writeFileAtomic } from "../lib/atomic-write.js";

/** Where the installation's plex.tv identity is kept: `<data>/plex-tv.json`. */
export const CLIENT_ID_FILE = "plex-tv.json";

/**
 * The X-Plex-Client-Identifier of this installation: made once, then the
 * same on every run (plex.tv lists each identifier as a device of the
 * account, so a new one per run would fill that list). Kept as
 * `{"clientIdentifier": "<uuid>"}`, written atomically with mode 0600.
 */
export async function installationClientId(dataDir: string): Promise<string> {
  const file = path.join(dataDir, CLIENT_ID_FILE);
  const known = await readTextFile(file).then(readId, (error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (known !== undefined) return known;
  const made = randomUUID();
  await writeFileAtomic(file, `${JSON.stringify({ clientIdentifier: made }, null, 2)}\n`, { mode: 0o600 });
  return made;
}

function readId(text: string): string | undefined {
  try {
    const data: unknown = JSON.parse(text);
    const id = typeof data === "object" && data !== null ? (data as Record<string, unknown>).clientIdentifier : undefined;
    return typeof id === "string" && id !== "" ? id : undefined;
  } catch {
    // A damaged file is replaced by a new identity: plex.tv then lists one more device, nothing breaks.
    return undefined;
  }
}
