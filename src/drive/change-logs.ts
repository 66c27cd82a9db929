import type { Logger } from "../lib/logger.js";
import { MY_DRIVE } from "./store.js";
import type { DriveApi, SharedDrive } from "./types.js";

/** A change log the monitor replays: My Drive's, or one shared drive's. */
export interface WatchedLog {
  logKey: string;
  /** The shared drive; undefined for My Drive. */
  driveId: string | undefined;
  /** Shared drive name from drives.list; My Drive's name comes from its root folder. */
  name: string | undefined;
}

/** Which change logs to watch: My Drive's, and shared drives by id or name. */
export interface LogChoice {
  myDrive: boolean;
  sharedDrives: string[];
  /** Where the shared drives were named, for the warning about one nobody sees; CLOUD.TEAMDRIVES unless set. */
  namedBy?: string;
}

/**
 * My Drive when chosen, plus each shared drive named (by id or name): CLOUD.TEAMDRIVES,
 * or an rclone remote's team_drive. A name that matches no drive is reported, not fatal.
 */
export async function listWatchedLogs(api: DriveApi, choice: LogChoice, logger: Logger): Promise<WatchedLog[]> {
  const logs: WatchedLog[] = choice.myDrive ? [{ logKey: MY_DRIVE, driveId: undefined, name: undefined }] : [];
  if (choice.sharedDrives.length === 0) return logs;
  const drives = await listAllSharedDrives(api);
  for (const wanted of choice.sharedDrives) {
    const match =
      drives.find((d) => d.id === wanted) ??
      drives.find((d) => d.name === wanted) ??
      drives.find((d) => d.name.toLowerCase() === wanted.toLowerCase());
    if (!match) {
      logger.warn(
        { teamDrive: wanted, available: drives.map((d) => d.name) },
        `${choice.namedBy ?? "CLOUD.TEAMDRIVES"} names a shared drive this account cannot see; skipping it`,
      );
      continue;
    }
    if (!logs.some((log) => log.logKey === match.id)) logs.push({ logKey: match.id, driveId: match.id, name: match.name });
  }
  return logs;
}

/** Every shared drive the account sees, following drives.list pages. */
export async function listAllSharedDrives(api: Pick<DriveApi, "listSharedDrives">): Promise<SharedDrive[]> {
  const drives: SharedDrive[] = [];
  let pageToken: string | undefined;
  do {
    const page = await api.listSharedDrives(pageToken);
    drives.push(...page.drives);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return drives;
}
