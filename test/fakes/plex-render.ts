import type { IncomingMessage, ServerResponse } from "node:http";
import type { FakeItem, FakeSection } from "./plex-library.js";

export type Rendered = [body: string, contentType: string];
type Fields = Record<string, unknown>;

export const FAKE_VERSION = "1.41.3.9314-a0bfb8370";

export function send(res: ServerResponse, status: number, body: string, contentType: string): void {
  res.writeHead(status, { "Content-Type": contentType, "X-Plex-Protocol": "1.0" });
  res.end(body);
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

/** Plex's error pages are tiny HTML documents, not JSON. */
export function plexError(status: number): Rendered {
  const text = `${status} ${STATUS_TEXT[status] ?? "Error"}`;
  return [`<html><head><title>${STATUS_TEXT[status] ?? "Error"}</title></head><body><h1>${text}</h1></body></html>`, "text/html"];
}

function wantsJson(req: IncomingMessage): boolean {
  return (req.headers.accept ?? "").includes("application/json");
}

/**
 * One MediaContainer in either of Plex's encodings. In XML, every list of
 * objects becomes child elements named by the list (Directory, Location, Media,
 * Part), except `Metadata`, whose entries are Directory (a folder) or
 * Video/Track/Photo (an item) as Plex writes them.
 */
export function renderContainer(req: IncomingMessage, container: Fields): Rendered {
  if (wantsJson(req)) return [JSON.stringify({ MediaContainer: container }), "application/json"];
  return [`<?xml version="1.0" encoding="UTF-8"?>\n${xmlElement("MediaContainer", container)}\n`, "text/xml;charset=utf-8"];
}

function xmlElement(name: string, fields: Fields): string {
  const attributes: string[] = [];
  const children: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (Array.isArray(value)) {
      for (const entry of value as Fields[]) children.push(xmlElement(key === "Metadata" ? metadataTag(entry) : key, entry));
    } else {
      attributes.push(` ${key}="${escapeXml(typeof value === "boolean" ? (value ? "1" : "0") : String(value))}"`);
    }
  }
  const head = `<${name}${attributes.join("")}`;
  return children.length === 0 ? `${head} />` : `${head}>\n${children.join("\n")}\n</${name}>`;
}

function metadataTag(entry: Fields): string {
  if (!("Media" in entry)) return "Directory";
  return entry.type === "track" ? "Track" : entry.type === "photo" ? "Photo" : "Video";
}

function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot", "'": "apos" }[c]};`);
}

const AGENTS: Record<string, [agent: string, scanner: string]> = {
  movie: ["tv.plex.agents.movie", "Plex Movie"],
  show: ["tv.plex.agents.series", "Plex TV Series"],
  artist: ["tv.plex.agents.music", "Plex Music"],
  photo: ["com.plexapp.agents.none", "Plex Photo Scanner"],
};

/** `refreshing` as current servers send it in JSON (a boolean) or as some send it (0/1). */
export type RefreshingStyle = "boolean" | "number";

export function renderSections(
  req: IncomingMessage,
  sections: FakeSection[],
  refreshing: (id: string) => boolean,
  style: RefreshingStyle,
): Rendered {
  let locationId = 0;
  const directories = sections.map((s) => {
    const [agent, scanner] = AGENTS[s.type] ?? ["com.plexapp.agents.none", "Plex Video Files Scanner"];
    const busy = refreshing(s.key);
    return {
      allowSync: true,
      art: `/:/resources/${s.type}-fanart.jpg`,
      composite: `/library/sections/${s.key}/composite/1700000000`,
      filters: true,
      refreshing: style === "number" ? (busy ? 1 : 0) : busy,
      thumb: `/:/resources/${s.type}.png`,
      key: s.key,
      type: s.type,
      title: s.title,
      agent,
      scanner,
      language: "en-US",
      uuid: `00000000-0000-4000-8000-${s.key.padStart(12, "0")}`,
      updatedAt: 1700000000,
      createdAt: 1600000000,
      scannedAt: 1700000000,
      content: true,
      directory: true,
      contentChangedAt: 1234,
      hidden: 0,
      Location: s.locations.map((path) => ({ id: ++locationId, path })),
    };
  });
  // Plex leaves out an empty Directory array altogether.
  const container = { size: sections.length, allowSync: false, title1: "Plex Library" };
  return renderContainer(req, directories.length > 0 ? { ...container, Directory: directories } : container);
}

/** One entry of a listing: an item with its Media/Part, as `/folder` and `/all` show it. */
export function itemFields(item: FakeItem): Fields {
  const name = item.file.slice(item.file.lastIndexOf("/") + 1);
  const id = Number(item.ratingKey);
  return {
    ratingKey: item.ratingKey,
    key: `/library/metadata/${item.ratingKey}`,
    type: item.type,
    title: name.replace(/\.[^.]+$/, ""),
    ...(item.parentRatingKey ? { parentRatingKey: item.parentRatingKey, parentKey: `/library/metadata/${item.parentRatingKey}` } : {}),
    ...(item.deletedAt !== undefined ? { deletedAt: item.deletedAt } : {}),
    addedAt: 1700000000,
    Media: [{ id, Part: [{ id, key: `/library/parts/${id}/1700000000/file.mkv`, file: item.file, size: 1000 }] }],
  };
}

export function renderIdentity(req: IncomingMessage): Rendered {
  return renderContainer(req, { size: 0, claimed: true, machineIdentifier: "fakeplex0123456789abcdef", version: FAKE_VERSION });
}

export function renderRoot(req: IncomingMessage): Rendered {
  return renderContainer(req, { size: 0, friendlyName: "fake-plex", machineIdentifier: "fakeplex0123456789abcdef", version: FAKE_VERSION });
}
