import type { MappingLink } from "./mapping-types.js";

/** Derived links written in the config's terms. */
export interface ConfigMappings {
  /** Entries for SERVER_PATH_MAPPINGS: the primary target's prefix → the apps' prefixes it replaces. */
  serverPathMappings: Record<string, string[]>;
  /** Per other target (by name), entries for its PATH_MAPPINGS: its prefix → the primary target's prefix it replaces. */
  targetPathMappings: Record<string, Record<string, string[]>>;
  /** Links that cannot be written: an app prefix placed in two places by one target, or a target link the primary target cannot chain to. */
  left: Array<{ link: MappingLink; why: string }>;
}

/**
 * Turns deriveMappings' links into the two tables scanarr applies in turn: an
 * app's path is first rewritten by SERVER_PATH_MAPPINGS into the primary
 * target's form (the Plex of the PLEX_* keys, or the first target), then by a
 * TARGETS entry's PATH_MAPPINGS into that server's own form. Identical
 * prefixes add nothing. Pure.
 */
export function composeMappings(links: readonly MappingLink[], primary: string): ConfigMappings {
  const out: ConfigMappings = { serverPathMappings: {}, targetPathMappings: {}, left: [] };
  const primaryForm = new Map<string, string>();
  for (const link of links.filter((l) => l.target === primary)) {
    const known = primaryForm.get(link.from);
    if (known !== undefined && known !== link.to) {
      out.left.push({ link, why: `${link.from} is already placed at ${known} in ${primary} by another app` });
      continue;
    }
    primaryForm.set(link.from, link.to);
    if (link.from !== link.to) add(out.serverPathMappings, link.to, link.from);
  }
  for (const link of links.filter((l) => l.target !== primary)) {
    const inPrimary = primaryForm.get(link.from);
    if (inPrimary === undefined) {
      out.left.push({ link, why: `${primary} has no place for ${link.from}, so ${link.target}'s path cannot be chained to it` });
      continue;
    }
    if (inPrimary === link.to) continue;
    const table = out.targetPathMappings[link.target] ?? {};
    const already = Object.entries(table).find(([, prefixes]) => prefixes.includes(inPrimary));
    if (already !== undefined && already[0] !== link.to) {
      out.left.push({ link, why: `${inPrimary} is already placed at ${already[0]} in ${link.target}` });
      continue;
    }
    add(table, link.to, inPrimary);
    out.targetPathMappings[link.target] = table;
  }
  return out;
}

function add(table: Record<string, string[]>, key: string, prefix: string): void {
  const list = table[key] ?? [];
  if (!list.includes(prefix)) list.push(prefix);
  table[key] = list;
}
