import { separatorFor, styleOf } from "../paths/index.js";

/**
 * Joins a relative file path under an *arr folder in the folder's own style:
 * a Windows Sonarr sends `D:\TV\Show` with `Season 1\file.mkv`, and the
 * path mapper later needs to see the same separators the sender used.
 */
export function joinUnder(folder: string, relative: string): string {
  if (styleOf(folder) !== "windows") {
    // On POSIX a backslash is an ordinary file-name character: leave it alone.
    return `${folder.replace(/\/+$/, "")}/${relative.replace(/^\/+/, "")}`;
  }
  const separator = folder.includes("\\") ? separatorFor("windows") : "/";
  const head = folder.replace(/[\\/]+$/, "");
  const tail = relative.replace(/^[\\/]+/, "").replace(/[\\/]+/g, separator);
  return `${head}${separator}${tail}`;
}
