import type { Library } from "../../domain.js";
import { isFields } from "../../http/client.js";

/**
 * What Jellyfin and Emby share since Jellyfin forked Emby 3.x: the
 * `/Library/Media/Updated` body and the library list shapes (apis.md §4).
 */

/** Jellyfin ignores the type (it rescans whatever changed); Emby reads it. */
export type UpdateType = "Created" | "Modified" | "Deleted";

export interface MediaUpdate {
  path: string;
  updateType: UpdateType;
}

/** The body of `POST /Library/Media/Updated`: `{"Updates":[{"Path":…,"UpdateType":…}]}`. */
export function mediaUpdatedBody(updates: readonly MediaUpdate[]): { Updates: Array<{ Path: string; UpdateType: UpdateType }> } {
  return { Updates: updates.map((u) => ({ Path: u.path, UpdateType: u.updateType })) };
}

/** The action named in error messages for one Media/Updated call. */
export function describeUpdates(updates: readonly MediaUpdate[]): string {
  const first = updates[0]?.path ?? "";
  return updates.length === 1 ? `report ${first} as changed` : `report ${updates.length} paths (${first}, …) as changed`;
}

/** `GET /Library/VirtualFolders` (Jellyfin): `[{Name, Locations[], CollectionType, ItemId}]`. */
export function readVirtualFolders(data: unknown): Library[] {
  return asList(data, "a list of libraries").flatMap((entry) => {
    if (!isFields(entry)) return [];
    // Jellyfin leaves CollectionType out for a "mixed" library.
    return toLibrary(entry, entry.ItemId, strings(entry.Locations), "mixed");
  });
}

/** `GET /Library/SelectableMediaFolders` (Emby): `[{Name, Id, Guid, CollectionType?, SubFolders:[{Path}]}]`. */
export function readSelectableFolders(data: unknown): Library[] {
  return asList(data, "a list of media folders").flatMap((entry) => {
    if (!isFields(entry)) return [];
    const paths = Array.isArray(entry.SubFolders) ? entry.SubFolders.flatMap((sub) => (isFields(sub) ? strings([sub.Path]) : [])) : [];
    return toLibrary(entry, entry.Id ?? entry.Guid, paths, "unknown");
  });
}

function toLibrary(entry: Record<string, unknown>, rawId: unknown, locations: string[], untyped: string): Library[] {
  const title = typeof entry.Name === "string" ? entry.Name : "";
  const id = typeof rawId === "string" && rawId !== "" ? rawId : typeof rawId === "number" ? String(rawId) : title;
  if (id === "") return [];
  const type = typeof entry.CollectionType === "string" && entry.CollectionType !== "" ? entry.CollectionType : untyped;
  return [{ id, title: title || id, type, locations }];
}

function asList(data: unknown, what: string): unknown[] {
  if (!Array.isArray(data)) throw new Error(`expected ${what}`);
  return data;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v !== "") : [];
}
