import type { DeriveApp, MappingLink, OneSided, UnmatchedRoot } from "./mapping-types.js";

/** The sentences deriveMappings shows as its evidence; wording only. */

const noun = (app: Pick<DeriveApp, "itemsNoun">): string => app.itemsNoun ?? "folders";

/** "42 of 42 series under /tv/ are under /data/TV/ in plex (TV Shows)", or the same path with no mapping needed. */
export function describeLink(link: MappingLink, app: Pick<DeriveApp, "itemsNoun">): string {
  const count = `${link.matched} of ${link.total} ${noun(app)} (${link.app}) under ${link.from}`;
  const where = `in ${link.target}${link.libraries.length > 0 ? ` (${link.libraries.join(", ")})` : ""}`;
  if (link.from === link.to) return `${count} are at the same path ${where}: no mapping needed`;
  return `${count} are under ${link.to} ${where}`;
}

export function describeUnmatched(entry: UnmatchedRoot, app: Pick<DeriveApp, "itemsNoun">, total: number): string {
  const where = `${entry.app}'s ${entry.root}`;
  const options = entry.suggestions.length > 0 ? `; ${entry.target}'s libraries are at ${entry.suggestions.join(", ")}` : "";
  if (entry.reason === "empty") return `${where} holds no ${noun(app)} yet: nothing to match in ${entry.target}${options}`;
  if (entry.reason === "ambiguous")
    return `${where}: its ${total} ${noun(app)} fit ${entry.suggestions.join(" and ")} in ${entry.target} equally; nothing proposed`;
  return `none of the ${total} ${noun(app)} under ${where} is in ${entry.target} by its folder name: nothing proposed${options}`;
}

/** "3 series under /tv/ are in Sonarr but not in plex: …" and the other way round. */
export function describeOneSided(entry: OneSided, app: Pick<DeriveApp, "itemsNoun">): string {
  const shown = entry.examples.join(", ") + (entry.count > entry.examples.length ? ", …" : "");
  if (entry.side === "app")
    return `${entry.count} ${noun(app)} under ${entry.under} are in ${entry.app} but not in ${entry.target}: ${shown}`;
  return `${entry.count} folders under ${entry.under} are in ${entry.target} but not in ${entry.app}: ${shown}`;
}
