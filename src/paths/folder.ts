import { extensionOf, KNOWN_FILE_EXTENSIONS } from "./extensions.js";
import { formatPath, parentOf, parsePath, type ParsedPath } from "./parse.js";

/** Whether a file name ends in an extension a media library holds. */
export function isKnownFileName(name: string): boolean {
  return KNOWN_FILE_EXTENSIONS.has(extensionOf(name));
}

/** Whether a path names a file or a folder, and why that was decided. */
export interface PathKind {
  isFile: boolean;
  why: string;
}

/**
 * File or folder: what the request said when it said (`isDirectory`); else a
 * trailing separator means a folder and a known media/subtitle/metadata
 * extension means a file; the dot alone proves nothing (`Movie.2010.1080p`
 * is a folder).
 */
export function classifyPath(serverPath: string, isDirectory?: boolean): PathKind {
  if (isDirectory !== undefined) return { isFile: !isDirectory, why: `the request said it is a ${isDirectory ? "folder" : "file"}` };
  return classifyParsed(parsePath(serverPath));
}

function classifyParsed(parsed: ParsedPath): PathKind {
  const last = parsed.parts[parsed.parts.length - 1];
  if (last === undefined) return { isFile: false, why: "it is a root" };
  if (parsed.trailingSlash) return { isFile: false, why: "it ends with a separator" };
  const extension = extensionOf(last);
  if (extension === "") return { isFile: false, why: "its last part has no extension" };
  if (isKnownFileName(last)) return { isFile: true, why: `".${extension}" is in the list of media file extensions` };
  return { isFile: false, why: `".${extension}" is not in the list of media file extensions` };
}

/** The folder to scan for a request about `serverPath`: a file's parent, or a folder itself (see classifyPath). */
export function folderToScan(serverPath: string, isDirectory?: boolean): string {
  const parsed = parsePath(serverPath);
  const isFile = isDirectory === undefined ? classifyParsed(parsed).isFile : !isDirectory;
  const folder = isFile ? parentOf(parsed) : { ...parsed, trailingSlash: false };
  return formatPath(folder);
}
