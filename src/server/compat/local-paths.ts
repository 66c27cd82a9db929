import type { Config } from "../../config/types.js";
import { createPrefixMapper } from "../../paths/mapper.js";

/**
 * Where a `?path=…&hash=…` file may be seen on this machine: its
 * SERVER_FILE_EXIST_PATH_MAPPINGS local path first (the same mapping the file
 * checks use), then the media-server path and the path as sent.
 */
export function localPathsOf(config: Config): (requested: string, serverPath: string) => string[] {
  const local = createPrefixMapper(config.SERVER_FILE_EXIST_PATH_MAPPINGS, "SERVER_FILE_EXIST_PATH_MAPPINGS");
  return (requested, serverPath) => {
    let mapped: string | undefined;
    try {
      mapped = local.map(serverPath);
    } catch {
      mapped = undefined;
    }
    return [...new Set([mapped, serverPath, requested].filter((p): p is string => p !== undefined))];
  };
}
