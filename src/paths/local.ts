import path from "node:path";
import { createPrefixMapper, PathError } from "./mapper.js";

/** Where scanarr itself sees a media-server path, or why it has no such place. */
export type LocalPath = { path: string } | { error: string };

/**
 * SERVER_FILE_EXIST_PATH_MAPPINGS as a function: `{ local prefix: [media-server
 * prefix, ...] }` applied by longest prefix, a path no prefix matches taken as
 * it is. Only an absolute POSIX result names a place scanarr can look.
 */
export function createLocalPathMapper(existMappings: Record<string, string[]>): (serverPath: string) => LocalPath {
  const toLocal = createPrefixMapper(existMappings, "SERVER_FILE_EXIST_PATH_MAPPINGS");
  return (serverPath) => {
    let local: string;
    try {
      local = toLocal.map(serverPath) ?? serverPath;
    } catch (error) {
      if (!(error instanceof PathError)) throw error;
      return { error: error.message };
    }
    if (!path.posix.isAbsolute(local)) {
      return { error: `${JSON.stringify(local)} is not a local path: add a SERVER_FILE_EXIST_PATH_MAPPINGS entry for it` };
    }
    return { path: local };
  };
}
