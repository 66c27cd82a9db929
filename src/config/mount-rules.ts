import { checkPathMappings } from "./mapping-rules.js";
import type { Config } from "./types.js";

const REMOTE_MAPPINGS = "RCLONE.RC_CACHE_REFRESH.FILE_EXISTS_TO_REMOTE_MAPPINGS";

/** Mount-safety checks that need more than one key's shape (absolute paths are checked by the schema). */
export function checkMountRules(config: Config): string[] {
  const problems: string[] = [];
  const refresh = config.RCLONE.RC_CACHE_REFRESH;
  if (refresh.ENABLED && Object.keys(refresh.FILE_EXISTS_TO_REMOTE_MAPPINGS).length === 0) {
    problems.push(`${REMOTE_MAPPINGS}: must map at least one remote path to its mount when RCLONE.RC_CACHE_REFRESH.ENABLED is true`);
  }
  for (const [list, at] of [
    [config.ANCHORS, "ANCHORS"],
    [config.PLEX_EMPTY_TRASH_CONTROL_FILES, "PLEX_EMPTY_TRASH_CONTROL_FILES"],
  ] as const) {
    list.forEach((file, i) => {
      if (file.split("/").includes("..")) problems.push(`${at}[${i}]: must not contain a '..' segment`);
    });
  }
  problems.push(...checkPathMappings(config.SERVER_FILE_EXIST_PATH_MAPPINGS, "SERVER_FILE_EXIST_PATH_MAPPINGS"));
  problems.push(...checkPathMappings(refresh.FILE_EXISTS_TO_REMOTE_MAPPINGS, REMOTE_MAPPINGS));
  return problems;
}
