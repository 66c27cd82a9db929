import type { Library } from "../../domain.js";
import { childList, readFlag, readId, readMediaContainer, type Fields } from "./container.js";

/** A section as `/library/sections` describes it, with its scan state. */
export interface PlexSection extends Library {
  /** True while Plex scans or refreshes the section (`refreshing`, 0/1 or a boolean). */
  refreshing: boolean;
}

/**
 * `MediaContainer.Directory[]` of `/library/sections`, in JSON or in XML.
 * Plex leaves out `Directory` when there is no library, and `Location` may be
 * missing; entries without a key are skipped.
 */
export function parseSectionStates(text: string, contentType: string): PlexSection[] {
  const container = readMediaContainer(text, contentType);
  return childList(container, "Directory").flatMap((entry) => {
    const section = toSection(entry);
    return section ? [section] : [];
  });
}

/** The libraries of `/library/sections`, without the scan state. */
export function parseSections(text: string, contentType: string): Library[] {
  return parseSectionStates(text, contentType).map(({ id, title, type, locations }) => ({ id, title, type, locations }));
}

/** What `GET /identity` says about the server. */
export interface PlexIdentity {
  machineIdentifier: string;
  version: string;
  claimed: boolean;
}

export function parseIdentity(text: string, contentType: string): PlexIdentity {
  const fields = readMediaContainer(text, contentType);
  return {
    machineIdentifier: String(fields.machineIdentifier ?? ""),
    version: String(fields.version ?? ""),
    claimed: readFlag(fields.claimed),
  };
}

function toSection(fields: Fields): PlexSection | undefined {
  const id = readId(fields.key);
  if (id === undefined) return undefined;
  const locations = childList(fields, "Location").flatMap((l) => (typeof l.path === "string" ? [l.path] : []));
  const title = typeof fields.title === "string" ? fields.title : id;
  const type = typeof fields.type === "string" ? fields.type : "unknown";
  return { id, title, type, locations, refreshing: readFlag(fields.refreshing) };
}
