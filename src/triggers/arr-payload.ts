import {
  PayloadError,
  getField,
  isObject,
  readOptionalObject,
  readOptionalString,
  whereText,
  type JsonObject,
  type Where,
} from "./read.js";
import type { RequestedPath } from "./types.js";
import { joinUnder } from "./join-path.js";

/** One *arr body plus where its media folder lives (`series.path`, `movie.folderPath`, ...). */
export interface ArrPayload {
  body: JsonObject;
  rootKey: string;
  rootPathKey: string;
}

/** The series/movie/artist/author folder, or undefined when the payload has none. */
export function readRoot(payload: ArrPayload): string | undefined {
  const root = readOptionalObject(payload.body, payload.rootKey, "");
  return root === undefined ? undefined : readOptionalString(root, payload.rootPathKey, payload.rootKey);
}

/** The media folder itself, for whole-item deletes and renames without file lists. */
export function readRootFolder(payload: ArrPayload): RequestedPath[] {
  const root = readRoot(payload);
  if (root === undefined) throw new PayloadError(`${rootWhere(payload)} is missing`);
  return [{ path: root, kind: "folder" }];
}

/** The file object at `key` (episodeFile, movieFile, trackFile, bookFile). */
export function readFile(payload: ArrPayload, key: string): RequestedPath[] {
  const entry = readOptionalObject(payload.body, key, "");
  if (entry === undefined) throw new PayloadError(`${key} is missing`);
  return [{ path: readFilePath(payload, entry, key, "path", "relativePath"), kind: "file" }];
}

/** Every entry of the file list at `key`; a missing or empty list is an error. */
export function readFiles(payload: ArrPayload, key: string): RequestedPath[] {
  const entries = readEntries(payload, key);
  if (entries === undefined || entries.length === 0) throw new PayloadError(`${key} is missing or empty`);
  return entries.map((entry, index) => ({
    path: readFilePath(payload, entry, () => `${key}[${index}]`, "path", "relativePath"),
    kind: "file",
  }));
}

/**
 * Files an upgrade replaced. On whole-item deletes `deletedFiles` is a boolean
 * instead, and the recycle-bin copy is never a scan target.
 */
export function readDeletedFiles(payload: ArrPayload): RequestedPath[] {
  return Array.isArray(getField(payload.body, "deletedFiles")) ? asDeleted(readFiles(payload, "deletedFiles")) : [];
}

/** Old and new path of every renamed file; without a list, the whole media folder. */
export function readRenamedFiles(payload: ArrPayload, key: string): RequestedPath[] {
  const entries = readEntries(payload, key);
  if (entries === undefined || entries.length === 0) return readRootFolder(payload);
  return entries.flatMap((entry, index) => {
    const where = () => `${key}[${index}]`;
    return [
      { path: readFilePath(payload, entry, where, "previousPath", "previousRelativePath"), kind: "file" as const, deleted: true },
      { path: readFilePath(payload, entry, where, "path", "relativePath"), kind: "file" as const },
    ];
  });
}

function readEntries(payload: ArrPayload, key: string): JsonObject[] | undefined {
  const value = getField(payload.body, key);
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new PayloadError(`${key} must be a list`);
  for (const [index, entry] of value.entries()) {
    if (!isObject(entry)) throw new PayloadError(`${key}[${index}] must be an object`);
  }
  return value as JsonObject[];
}

/** The absolute path when sent, else the relative path joined under the media folder. */
function readFilePath(payload: ArrPayload, entry: JsonObject, where: Where, pathKey: string, relativeKey: string): string {
  const absolute = readOptionalString(entry, pathKey, where);
  if (absolute !== undefined) return absolute;
  const relative = readOptionalString(entry, relativeKey, where);
  if (relative === undefined) throw new PayloadError(`${whereText(where)} has neither ${pathKey} nor ${relativeKey}`);
  const root = readRoot(payload);
  if (root === undefined) {
    throw new PayloadError(`${whereText(where)}.${relativeKey} needs ${rootWhere(payload)}, which is missing`);
  }
  return joinUnder(root, relative);
}

function rootWhere(payload: ArrPayload): string {
  return `${payload.rootKey}.${payload.rootPathKey}`;
}

/** The same paths, marked as removed by the event. */
export function asDeleted(paths: RequestedPath[]): RequestedPath[] {
  return paths.map((p) => ({ ...p, deleted: true }));
}
