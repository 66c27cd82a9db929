import { extensionOf, KNOWN_FILE_EXTENSIONS } from "./extensions.js";
import { formatPath, parentOf, parsePath } from "./parse.js";

/** Whether a file name ends in an extension a media library holds. */
export function isKnownFileName(name: string): boolean {
  return KNOWN_FILE_EXTENSIONS.has(extensionOf(name));
}

/**
 * The folder to scan for a request about `serverPath`: a file's parent, or a
 * folder itself. When `isDirectory` is unknown, a trailing separator means a
 * folder and a known media/subtitle/metadata extension means a file; the dot
 * alone proves nothing (`Movie.2010.1080p` is a folder).
 */
export function folderToScan(serverPath: string, isDirectory?: boolean): string {
  const parsed = parsePath(serverPath);
  const last = parsed.parts[parsed.parts.length - 1];
  const isFile = isDirectory === undefined ? !parsed.trailingSlash && last !== undefined && isKnownFileName(last) : !isDirectory;
  const folder = isFile ? parentOf(parsed) : { ...parsed, trailingSlash: false };
  return formatPath(folder);
}
