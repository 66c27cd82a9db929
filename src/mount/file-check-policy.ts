import type { Config } from "../config/types.js";
import type { FileVisibility } from "./file-check.js";

/** What the queue does with a scan after one of its file-check rounds. */
export type FileCheckDecision =
  | { kind: "deliver" }
  | { kind: "check-again"; at: number }
  | { kind: "exhausted"; action: "scan-folder" | "fail"; reason: string };

export type FileCheckSettings = Pick<
  Config,
  "SERVER_MAX_FILE_CHECKS" | "SERVER_FILE_CHECK_DELAY" | "SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION"
>;

/**
 * scanarr's meaning of the file-check keys: SERVER_MAX_FILE_CHECKS rounds in
 * all (0 = no checks, deliver at once), SERVER_FILE_CHECK_DELAY seconds
 * apart. After the last round, the folder is scanned anyway or the scan fails
 * with the reason, as SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION says.
 * `round` is the number of the round just run, from 1.
 */
export function decideAfterRound(
  files: readonly FileVisibility[],
  round: number,
  now: number,
  settings: FileCheckSettings,
): FileCheckDecision {
  const unseen = files.filter((f) => !f.visible);
  if (unseen.length === 0 || settings.SERVER_MAX_FILE_CHECKS <= 0) return { kind: "deliver" };
  if (round < settings.SERVER_MAX_FILE_CHECKS) return { kind: "check-again", at: now + settings.SERVER_FILE_CHECK_DELAY * 1000 };
  const first = unseen[0] as FileVisibility;
  const where = first.localPath && first.localPath !== first.file ? ` (looked for at ${first.localPath})` : "";
  const why = first.error ? `: ${first.error}` : "";
  const more = unseen.length > 1 ? ` and ${unseen.length - 1} more` : "";
  const reason = `file not visible after ${round} check${round === 1 ? "" : "s"}: ${first.file}${where}${why}${more}`;
  return { kind: "exhausted", action: settings.SERVER_SCAN_FOLDER_ON_FILE_EXISTS_EXHAUSTION ? "scan-folder" : "fail", reason };
}
