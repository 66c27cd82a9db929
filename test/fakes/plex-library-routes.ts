import type { IncomingMessage, ServerResponse } from "node:http";
import { isUnder, type FakeMediaLibrary, type FakeSection } from "./plex-library.js";
import { itemFields, plexError, renderContainer, send } from "./plex-render.js";

/** What the item and trash endpoints record, in arrival order. */
export interface LibraryCalls {
  /** ratingKeys of `PUT /library/metadata/{id}/analyze`. */
  analyzed: string[];
  /** ratingKeys of `PUT /library/metadata/{id}/refresh`. */
  itemRefreshes: string[];
  /** Section ids of `PUT /library/sections/{id}/emptyTrash`. */
  emptiedTrash: string[];
}

export interface LibraryContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  sections: FakeSection[];
  library: FakeMediaLibrary;
  calls: LibraryCalls;
}

/** `/library/metadata/{id}/analyze|refresh`: PUT only (GET gives 405 on a real server), 404 for an unknown item. */
export function answerItemAction(ctx: LibraryContext, ratingKey: string, action: "analyze" | "refresh"): void {
  if (ctx.req.method !== "PUT") return send(ctx.res, 405, ...plexError(405));
  if (!ctx.library.findItem(ratingKey) && !ctx.library.isParent(ratingKey)) return send(ctx.res, 404, ...plexError(404));
  (action === "analyze" ? ctx.calls.analyzed : ctx.calls.itemRefreshes).push(ratingKey);
  send(ctx.res, 200, "", "text/html");
}

/** `PUT /library/sections/{id}/emptyTrash`: forgets the section's trashed items. */
export function answerEmptyTrash(ctx: LibraryContext, section: FakeSection): void {
  if (ctx.req.method !== "PUT") return send(ctx.res, 405, ...plexError(405));
  ctx.calls.emptiedTrash.push(section.key);
  ctx.library.emptyTrash(section.key);
  send(ctx.res, 200, "", "text/html");
}

/**
 * `GET /library/sections/{id}/all`: the section's items (`trash=1`: only the
 * trashed ones), paged by `X-Plex-Container-Start/Size` in the query or the
 * headers, with `totalSize`.
 */
export function answerAll(ctx: LibraryContext, section: FakeSection): void {
  const trash = ctx.url.searchParams.get("trash") === "1";
  const items = [...ctx.library.items.values()].filter((i) => i.sectionId === section.key && (!trash || i.deletedAt !== undefined));
  const paging = (name: string): number | undefined => {
    const raw = ctx.url.searchParams.get(name) ?? (ctx.req.headers[name.toLowerCase()] as string | undefined);
    return raw === undefined ? undefined : Number(raw);
  };
  const start = paging("X-Plex-Container-Start") ?? 0;
  const size = paging("X-Plex-Container-Size") ?? items.length;
  const page = items.slice(start, start + size).map(itemFields);
  const container = { size: page.length, offset: start, totalSize: items.length, librarySectionID: Number(section.key) };
  send(ctx.res, 200, ...renderContainer(ctx.req, page.length > 0 ? { ...container, Metadata: page } : container));
}

/** The folder view's `parent` ids, both ways (a section's root may list 50,000 folders). */
export interface FolderIds {
  byId: Map<string, string>;
  byDir: Map<string, string>;
}

/**
 * `GET /library/sections/{id}/folder[?parent=N]`: Plex's folder view. The root
 * lists the one location's content, or each location by its full path when
 * there are several; `parent` ids are handed out per folder as Plex's
 * `directories` ids are.
 */
export function answerFolder(ctx: LibraryContext, section: FakeSection, folderIds: FolderIds): void {
  const parent = ctx.url.searchParams.get("parent");
  const idOf = (dir: string): string => {
    const known = folderIds.byDir.get(dir);
    if (known !== undefined) return known;
    const id = String(folderIds.byId.size + 1);
    folderIds.byId.set(id, dir);
    folderIds.byDir.set(dir, id);
    return id;
  };
  const folderEntry = (dir: string, title: string) => ({ key: `/library/sections/${section.key}/folder?parent=${idOf(dir)}`, title });
  let dir: string | undefined;
  if (parent !== null) {
    dir = folderIds.byId.get(parent);
    if (dir === undefined || !section.locations.some((l) => isUnder(l, dir as string))) return send(ctx.res, 404, ...plexError(404));
  } else if (section.locations.length === 1) {
    dir = section.locations[0];
  }
  const entries =
    dir === undefined ? section.locations.map((location) => folderEntry(location, location)) : listing(ctx, section, dir, folderEntry);
  const container = { size: entries.length, allowSync: false, title1: section.title };
  send(ctx.res, 200, ...renderContainer(ctx.req, entries.length > 0 ? { ...container, Metadata: entries } : container));
}

function listing(
  ctx: LibraryContext,
  section: FakeSection,
  dir: string,
  folderEntry: (dir: string, title: string) => Record<string, unknown>,
): Array<Record<string, unknown>> {
  const base = dir.replace(/\/+$/, "");
  const { folders, items } = ctx.library.listDir(section.key, base);
  return [...folders.map((name) => folderEntry(`${base}/${name}`, name)), ...items.map(itemFields)];
}
