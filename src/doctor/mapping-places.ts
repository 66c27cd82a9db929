import type { Library } from "../domain.js";
import { findLibrariesFor, isWithin } from "../paths/index.js";
import { parsePath } from "../paths/parse.js";
import type { ResolvedTarget } from "../paths/trace.js";

/** Where a media-server path lands on one target whose libraries are known. */
export interface Placement {
  target: ResolvedTarget;
  /** The path as this target names it (its PATH_MAPPINGS applied). */
  seen: string;
  /** `inside TV (jellyfin: /media/TV)`, `holds TV (plex)`; empty when no library of the target is there. */
  found: string[];
}

/** The libraries of `target` holding `seen` (or held by it), described for a doctor line. */
export function placeOn(target: ResolvedTarget & { libraries: Library[] }, seen: string): Placement {
  const holding = findLibrariesFor(seen, target.libraries);
  const found = holding.map((library) => {
    const location = library.locations.filter((l) => isWithin(l, seen)).sort((a, b) => b.length - a.length)[0] ?? "";
    return `inside ${library.title} (${target.name}: ${location})`;
  });
  for (const library of target.libraries) {
    if (!holding.includes(library) && library.locations.some((l) => isWithin(seen, l)))
      found.push(`holds ${library.title} (${target.name})`);
  }
  return { target, seen, found };
}

/** The targets whose libraries were read, narrowed; the others are "unknown". */
export function knownTargets(targets: readonly ResolvedTarget[]): Array<ResolvedTarget & { libraries: Library[] }> {
  return targets.filter((t): t is ResolvedTarget & { libraries: Library[] } => Array.isArray(t.libraries));
}

/**
 * A hint for a path no library holds: a library folder beside it with a
 * similar name (`/data/TV/` vs `/data/TV-Shows`), or one elsewhere ending in
 * the same folder name (`/data/TV-Shows/` vs Jellyfin's `/media/TV-Shows`:
 * the target sees the folder under another prefix and needs PATH_MAPPINGS).
 */
export function nearMiss(seen: string, libraries: readonly Library[]): { beside?: string; elsewhere?: string } {
  const parsed = parsePath(seen);
  const last = parsed.parts[parsed.parts.length - 1]?.toLowerCase() ?? "";
  if (last === "") return {};
  const parent = parsed.parts.slice(0, -1).join("/");
  let elsewhere: string | undefined;
  for (const location of libraries.flatMap((l) => l.locations)) {
    const other = parsePath(location);
    const otherLast = other.parts[other.parts.length - 1]?.toLowerCase() ?? "";
    const sameParent = other.root === parsed.root && other.parts.slice(0, -1).join("/") === parent;
    if (sameParent && otherLast !== "" && (otherLast.startsWith(last) || last.startsWith(otherLast))) {
      return { beside: location.endsWith("/") ? location : `${location}/` };
    }
    if (!sameParent && otherLast === last) elsewhere ??= location.endsWith("/") ? location : `${location}/`;
  }
  return elsewhere === undefined ? {} : { elsewhere };
}
