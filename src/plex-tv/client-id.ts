import { randomUUID } from "node:crypto";
import Conf from "conf";

/** Where the installation's plex.tv identity is kept: `<data>/plex-tv.json`. */
export const CLIENT_ID_FILE = "plex-tv.json";

/**
 * The X-Plex-Client-Identifier of this installation: made once, then the
 * same on every run (plex.tv lists each identifier as a device of the
 * account, so a new one per run would fill that list).
 */
export function installationClientId(dataDir: string): string {
  const store = new Conf<{ clientIdentifier?: string }>({
    cwd: dataDir,
    configName: "plex-tv",
    projectName: "scanarr",
    configFileMode: 0o600,
  });
  const known = store.get("clientIdentifier");
  if (typeof known === "string" && known !== "") return known;
  const made = randomUUID();
  store.set("clientIdentifier", made);
  return made;
}
