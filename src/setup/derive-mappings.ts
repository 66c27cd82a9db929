import { formatPath, isPrefixOf, type ParsedPath } from "../paths/parse.js";
import { display, nameKey, parseAll, prefixPair, rankRoots, type Parsed } from "./folder-match.js";
import { describeLink, describeOneSided, describeUnmatched } from "./mapping-evidence.js";
import type { DeriveApp, DeriveInput, DeriveResult, DeriveTarget, MappingLink, OneSided, UnmatchedRoot } from "./mapping-types.js";

export type {
  DeriveApp,
  DeriveInput,
  DeriveLibrary,
  DeriveResult,
  DeriveTarget,
  MappingLink,
  OneSided,
  UnmatchedRoot,
} from "./mapping-types.js";

/** How many example folders a one-sided report names. */
const EXAMPLES = 5;

interface ServerItem extends Parsed {
  library: string;
}

/**
 * Proposes prefix mappings between the apps' folders and each media
 * server's, from the folder names they share: an app item `/tv/Show` and a
 * server item `/data/TV/Show` put the app root `/tv` at `/data/TV`. Each
 * item votes for the pair of prefixes its longest common suffix leaves (a
 * name found in two places votes for the one whose parent folder is named
 * most alike); the pair most items agree on wins. Pure: no I/O.
 */
export function deriveMappings(input: DeriveInput): DeriveResult {
  const result: DeriveResult = { mappings: [], links: [], evidence: [], unmatched: [], oneSided: [] };
  for (const target of input.targets) {
    const index = indexByName(target);
    const roots = target.libraries.flatMap((library) => library.roots);
    for (const app of input.apps) {
      for (const root of rootsOf(app)) deriveRoot(app, root, target, index, roots, result);
    }
  }
  result.mappings = result.links.filter((link) => link.from !== link.to);
  return result;
}

function deriveRoot(
  app: DeriveApp,
  root: Parsed,
  target: DeriveTarget,
  index: Map<string, ServerItem[]>,
  serverRoots: readonly string[],
  result: DeriveResult,
): void {
  const items = parseAll(app.itemPaths).filter(
    (item) => isPrefixOf(root.path, item.path) && item.path.parts.length > root.path.parts.length,
  );
  const unmatched = (reason: UnmatchedRoot["reason"], suggestions = rankRoots(serverRoots, root.path)) => {
    const entry: UnmatchedRoot = { target: target.name, app: app.name, root: display(root.path), reason, suggestions };
    result.unmatched.push(entry);
    result.evidence.push(describeUnmatched(entry, app, items.length));
  };
  if (items.length === 0) return unmatched("empty");

  const votes = new Map<string, { from: ParsedPath; to: ParsedPath; items: Set<string>; libraries: Set<string> }>();
  const lonely: string[] = [];
  for (const item of items) {
    const candidates = index.get(nameKey(item.path)) ?? [];
    if (candidates.length === 0) {
      lonely.push(item.raw);
      continue;
    }
    const below = item.path.parts.length - root.path.parts.length;
    const scored = candidates
      .map((candidate) => ({ candidate, ...prefixPair(item.path, candidate.path, below) }))
      .filter((s) => s.shared > 0);
    if (scored.length === 0) {
      lonely.push(item.raw);
      continue;
    }
    const best = Math.max(...scored.map((s) => s.alike));
    for (const { candidate, from, to, alike } of scored) {
      if (alike !== best) continue;
      const key = `${formatPath(from)}\u0000${formatPath(to)}`;
      const vote = votes.get(key) ?? { from, to, items: new Set(), libraries: new Set() };
      vote.items.add(item.raw);
      vote.libraries.add(candidate.library);
      votes.set(key, vote);
    }
  }
  // Most items agreeing wins; on a tie, the place whose folders are most nearly the root's own (a 4K library holding
  // only the 4K root's titles beats the main library holding them too). Still tied: ambiguous, nothing proposed.
  const closenesses = new Map<string, number>();
  const closeness = (v: { from: ParsedPath; to: ParsedPath; items: Set<string> }): number => {
    const key = `${formatPath(v.from)}\u0000${formatPath(v.to)}`;
    const known = closenesses.get(key) ?? v.items.size / (items.length + countUnder(index, v.to) - v.items.size);
    closenesses.set(key, known);
    return known;
  };
  const ranked = [...votes.values()].sort((a, b) => b.items.size - a.items.size || closeness(b) - closeness(a));
  const [winner, runnerUp] = ranked;
  if (winner === undefined) return unmatched("no match");
  const tied = (v: typeof winner) => v.items.size === winner.items.size && closeness(v) === closeness(winner);
  if (runnerUp !== undefined && tied(runnerUp))
    return unmatched(
      "ambiguous",
      ranked.filter(tied).map((v) => display(v.to)),
    );

  const link: MappingLink = {
    target: target.name,
    app: app.name,
    from: display(winner.from),
    to: display(winner.to),
    matched: winner.items.size,
    total: items.length,
    libraries: [...winner.libraries].sort(),
  };
  result.links.push(link);
  result.evidence.push(describeLink(link, app));
  reportOneSided(result, link, app, winner.to, items, lonely, index);
}

/** Folders only the app has, and (unless the app's list is a sample) folders only the server has under the mapped prefix. */
function reportOneSided(
  result: DeriveResult,
  link: MappingLink,
  app: DeriveApp,
  to: ParsedPath,
  items: readonly Parsed[],
  lonely: readonly string[],
  index: Map<string, ServerItem[]>,
): void {
  const add = (side: OneSided["side"], under: string, paths: readonly string[]) => {
    if (paths.length === 0) return;
    const entry: OneSided = { target: link.target, app: link.app, side, under, count: paths.length, examples: paths.slice(0, EXAMPLES) };
    result.oneSided.push(entry);
    result.evidence.push(describeOneSided(entry, app));
  };
  add("app", link.from, lonely);
  if (app.sampled) return;
  const names = new Set(items.map((item) => nameKey(item.path)));
  const serverOnly = [...index.values()]
    .flat()
    .filter((s) => isPrefixOf(to, s.path) && s.path.parts.length === to.parts.length + 1 && !names.has(nameKey(s.path)))
    .map((s) => s.raw);
  add("server", link.to, [...new Set(serverOnly)]);
}

/** How many of the target's item folders sit directly in `folder`. */
function countUnder(index: Map<string, ServerItem[]>, folder: ParsedPath): number {
  let count = 0;
  for (const list of index.values())
    for (const item of list) if (item.path.parts.length === folder.parts.length + 1 && isPrefixOf(folder, item.path)) count++;
  return count;
}

/** The target's item folders by their name. */
function indexByName(target: DeriveTarget): Map<string, ServerItem[]> {
  const index = new Map<string, ServerItem[]>();
  for (const library of target.libraries) {
    for (const item of parseAll(library.itemPaths)) {
      const key = nameKey(item.path);
      const list = index.get(key) ?? [];
      if (!list.some((known) => known.raw === item.raw)) list.push({ ...item, library: library.title });
      index.set(key, list);
    }
  }
  return index;
}

/** The app's root folders, plus the parent of any item outside them (an app can hold items outside its roots). */
function rootsOf(app: DeriveApp): Parsed[] {
  const roots = parseAll(app.rootFolders);
  for (const item of parseAll(app.itemPaths)) {
    if (roots.some((root) => isPrefixOf(root.path, item.path)) || item.path.parts.length < 2) continue;
    const parent = { ...item.path, parts: item.path.parts.slice(0, -1), trailingSlash: false };
    roots.push({ raw: formatPath(parent), path: parent });
  }
  return roots;
}
