import { parsePath } from "./parse.js";
import { isWithin } from "./within.js";

const PLACEHOLDER = "/path/on/the/server/";

/** A SERVER_PATH_MAPPINGS entry to add: the media-server folder (the key) and the cloud-drive prefix under it. */
export interface MappingToAdd {
  key: string;
  entry: string;
  /** False when no library folder shares a folder name with the drive path: the key is a placeholder to fill in. */
  derived: boolean;
}

/**
 * The SERVER_PATH_MAPPINGS entry that would carry a cloud-drive path (`My
 * Drive/encrypt/Media/...`) to the media servers: aligned on the shallowest
 * folder of the drive path whose name (case aside) a library location also
 * has, where the path then lands in or above a library (`Media` in
 * `/data/Media/TV` gives `"/data/Media/": ["My Drive/encrypt/Media/"]`).
 * Otherwise the key is a placeholder and the entry `folder`, else the drive
 * path itself. `locations`: the targets' library folders, in target order.
 */
export function suggestDriveMapping(drivePath: string, locations: readonly string[], folder?: string): MappingToAdd {
  const parts = parsePath(drivePath).parts;
  const lands = (server: string) => locations.some((l) => isWithin(l, server) || isWithin(server, l));
  // The first part is the drive ("My Drive", a shared drive's name): no library is named after it.
  for (let i = 1; i < parts.length; i++) {
    for (const location of locations) {
      const key = keyAt(location, parts[i]!);
      if (key !== undefined && lands(`${key}${parts.slice(i + 1).join(key.endsWith("\\") ? "\\" : "/")}`))
        return { key, entry: `${parts.slice(0, i + 1).join("/")}/`, derived: true };
    }
  }
  return { key: PLACEHOLDER, entry: folder ?? `${parts.join("/")}/`, derived: false };
}

/** `location` cut after its folder named `name` (case aside), with a trailing separator; undefined when it has none. */
function keyAt(location: string, name: string): string | undefined {
  const parsed = parsePath(location);
  if (parsed.style === "relative") return undefined;
  const at = parsed.parts.findIndex((part) => part.toLowerCase() === name.toLowerCase());
  if (at < 0) return undefined;
  const sep = parsed.style === "windows" ? "\\" : "/";
  const root = parsed.root === "/" || parsed.root.endsWith(sep) ? parsed.root : `${parsed.root}${sep}`;
  return `${root}${parsed.parts.slice(0, at + 1).join(sep)}${sep}`;
}

/** `add "/data/Media/": ["My Drive/encrypt/Media/"] to SERVER_PATH_MAPPINGS`, with what to fill in for a placeholder. */
export function describeMappingToAdd(add: MappingToAdd): string {
  const words = `add ${JSON.stringify(add.key)}: ${JSON.stringify([add.entry])} to SERVER_PATH_MAPPINGS`;
  if (add.derived) return words;
  return `${words}, with the folder your media servers see ${add.entry} as in place of ${add.key} (no library folder shares a folder name with it)`;
}
