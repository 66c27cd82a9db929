import { isPrefixOf, parentOf, parsePath, type ParsedPath } from "../../paths/parse.js";
import type { PlexApiClient } from "./api.js";
import type { FolderListing } from "./folder-listing.js";
import type { PlexItemRef } from "./library-items-db.js";
import { matchInFolder } from "./sidecar-items.js";

/** The one call the walk makes; PlexApiClient has it. */
export type FolderApi = Pick<PlexApiClient, "listFolder">;

/** A section as far as the walk needs it: its id and its folders. */
export interface SectionFolders {
  id: string;
  locations: readonly string[];
}

/**
 * Finds files through Plex's folder view: from the section's root, one
 * listing per path component down to each file's folder, then the items of
 * that folder with their `Media/Part/file`. A season folder costs about three
 * small listings instead of a listing of the whole section, and listings are
 * shared by every file and folder asked in one call (one per folder, not per
 * file). `cache` may outlive the call (the folders above the files' own are
 * then not listed again); the files' own folders are always listed afresh,
 * once per call. Returns the live items of `files`, by file (a sidecar: its video's
 * item, sidecar-items.ts); trashed parts count as absent, as a missing
 * folder does.
 */
export async function locateThroughFolders(
  api: FolderApi,
  section: SectionFolders,
  files: readonly string[],
  cache: Map<string, Promise<FolderListing>> = new Map(),
): Promise<Map<string, PlexItemRef>> {
  // Listings this call asked for itself; one served from an older call's cache is asked again for the files.
  const fetched = new Set<string>();
  const list = (key?: string, fresh = false): Promise<FolderListing> => {
    const id = `${section.id}\0${key ?? ""}`;
    let listing = cache.get(id);
    if (!listing || (fresh && !fetched.has(id))) {
      listing = api.listFolder(section.id, key);
      cache.set(id, listing);
      fetched.add(id);
    }
    return listing;
  };
  const found = new Map<string, PlexItemRef>();
  for (const [folder, wanted] of groupByFolder(files)) {
    const walked = await walkTo(list, section, folder);
    if (!walked) continue;
    const listing = await list(walked.key, true);
    const refs = listing.items.flatMap((item) =>
      item.files.flatMap((part) => {
        if (part.trashed) return [];
        const ref: PlexItemRef = { file: part.file, ratingKey: item.ratingKey };
        if (item.parentRatingKey !== undefined) ref.parentRatingKey = item.parentRatingKey;
        return [ref];
      }),
    );
    matchInFolder(wanted, refs, found);
  }
  return found;
}

type Lister = (key?: string, fresh?: boolean) => Promise<FolderListing>;

/** The key of `folder` in Plex's folder view (undefined: the section's root), or no answer when it has no such folder. */
async function walkTo(list: Lister, section: SectionFolders, folder: ParsedPath): Promise<{ key: string | undefined } | undefined> {
  const location = deepestLocation(section, folder);
  if (!location) return undefined;
  let key: string | undefined;
  // With several locations, the root of the folder view lists each location by its full path.
  const rootEntry = (await list()).folders.find((f) => sameName(f.title, location.text, location.parsed));
  if (rootEntry) key = rootEntry.key;
  for (const name of folder.parts.slice(location.parsed.parts.length)) {
    const next = (await list(key)).folders.find((f) => sameName(f.title, name, folder));
    if (!next) return undefined;
    key = next.key;
  }
  return { key };
}

function groupByFolder(files: readonly string[]): Map<ParsedPath, Set<string>> {
  const byText = new Map<string, { folder: ParsedPath; files: Set<string> }>();
  for (const file of files) {
    let folder: ParsedPath;
    try {
      folder = parentOf(parsePath(file));
    } catch {
      continue; // not a path Plex could hold
    }
    const key = `${folder.style}\0${folder.root}\0${folder.parts.join("\0")}`;
    const group = byText.get(key) ?? { folder, files: new Set<string>() };
    group.files.add(file);
    byText.set(key, group);
  }
  return new Map([...byText.values()].map((g) => [g.folder, g.files]));
}

function deepestLocation(section: SectionFolders, folder: ParsedPath): { text: string; parsed: ParsedPath } | undefined {
  let best: { text: string; parsed: ParsedPath } | undefined;
  for (const text of section.locations) {
    let parsed: ParsedPath;
    try {
      parsed = parsePath(text);
    } catch {
      continue;
    }
    if (isPrefixOf(parsed, folder) && (!best || parsed.parts.length > best.parsed.parts.length)) best = { text, parsed };
  }
  return best;
}

/** Folder names compare whole, in Unicode NFC; Windows names ignore case as Windows does. */
function sameName(title: string, name: string, style: ParsedPath): boolean {
  const a = title.normalize("NFC").replace(/[\\/]+$/, "");
  const b = name.normalize("NFC").replace(/[\\/]+$/, "");
  return style.style === "windows" ? a.toLowerCase() === b.toLowerCase() : a === b;
}
