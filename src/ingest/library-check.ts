import type { LibraryCatalog } from "../domain.js";
import { nextTurn } from "../lib/next-turn.js";
import { matcherOf } from "../paths/index.js";

/** Folders matched against the libraries between two turns of the event loop (a 20,000-folder import). */
const FOLDERS_PER_SLICE = 1_000;

/** Folders some library holds, each spelled as the library spells its location, and the folders none holds. */
export interface LibrarySplit {
  matched: Array<[folder: string, spelled: string]>;
  unmatched: string[];
}

/**
 * Splits folders by whether a library holds them. Spelling a folder like its
 * library makes case variants of a Windows path coalesce. Without a catalog
 * every folder passes; an unknown answer passes too (the libraries could not
 * be read yet, and delivery checks again).
 */
export async function splitByLibrary(
  folders: ReadonlySet<string>,
  catalog: LibraryCatalog | undefined,
  refreshTimeoutMs: number,
): Promise<LibrarySplit> {
  const split = async (): Promise<LibrarySplit> => {
    const known = catalog?.knownLibraries();
    const matcher = known ? matcherOf(known) : undefined;
    const matched = new Map<string, string>();
    const unmatched: string[] = [];
    let inSlice = 0;
    for (const folder of folders) {
      if (++inSlice > FOLDERS_PER_SLICE) {
        inSlice = 1;
        await nextTurn();
      }
      const holding = catalog?.librariesHolding(folder);
      if (holding !== undefined && holding.length === 0) unmatched.push(folder);
      else matched.set(folder, matcher ? matcher.spellLikeLibrary(folder) : folder);
    }
    return { matched: [...matched], unmatched };
  };
  const first = await split();
  if (!catalog || first.unmatched.length === 0) return first;
  // The libraries may be stale (a library added since the last refresh): look once more.
  await withTimeout(catalog.refreshLibraries(), refreshTimeoutMs);
  return split();
}

/**
 * The library locations holding `path` (media-server form), as
 * `LibraryCatalog.libraryRootsOf` gives them; libraries not known yet are
 * fetched once, waiting as long as the library check would. Undefined when
 * they still cannot be told (or there is no catalog).
 */
export async function libraryRootsOf(
  path: string,
  catalog: LibraryCatalog | undefined,
  refreshTimeoutMs: number,
): Promise<string[] | undefined> {
  if (catalog === undefined) return undefined;
  const roots = catalog.libraryRootsOf(path);
  if (roots !== undefined) return roots;
  await withTimeout(catalog.refreshLibraries(), refreshTimeoutMs);
  return catalog.libraryRootsOf(path);
}

async function withTimeout(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([
    work.then(
      () => undefined,
      () => undefined,
    ),
    timeout,
  ]);
  clearTimeout(timer);
}
