import { parsePath } from "./parse.js";

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
 * folder of the drive path whose name (case aside) a part of a library
 * location (the targets' libraries, in order) also has (`Media` in `/data/Media/TV` gives `"/data/Media/":
 * ["My Drive/encrypt/Media/"]`). With no such name the key is a placeholder
 * and the entry is `folder`, else the drive path's own folder.
 */
export function suggestDriveMapping(drivePath: string, locations: readonly string[], folder?: string): MappingToAdd {
  const parts = parsePath(drivePath).parts;
  // The first part is the drive ("My Drive", a shared drive's name): no library is named after it.
  for (let i = 1; i < parts.length; i++) {
    const name = parts[i]!.toLowerCase();
    for (const location of locations) {
      const parsed = parsePath(location);
      if (parsed.style === "relative") continue;
      const at = parsed.parts.findIndex((part) => part.toLowerCase() === name);
      if (at < 0) continue;
      const sep = parsed.style === "windows" ? "\\" : "/";
      const root = parsed.root === "/" ? "/" : parsed.root.endsWith(sep) ? parsed.root : `${parsed.root}${sep}`;
      return {
        key: `${root}${parsed.parts.slice(0, at + 1).join(sep)}${sep}`,
        entry: `${parts.slice(0, i + 1).join("/")}/`,
        derived: true,
      };
    }
  }
  return { key: PLACEHOLDER, entry: folder ?? `${parts.join("/")}/`, derived: false };
}

/** `add "/data/Media/": ["My Drive/encrypt/Media/"] to SERVER_PATH_MAPPINGS`, with what to fill in for a placeholder. */
export function describeMappingToAdd(add: MappingToAdd): string {
  const words = `add ${JSON.stringify(add.key)}: ${JSON.stringify([add.entry])} to SERVER_PATH_MAPPINGS`;
  if (add.derived) return words;
  return `${words}, with the folder your media servers see ${add.entry} as in place of ${add.key} (no library folder shares a folder name with it)`;
}
