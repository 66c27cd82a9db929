import type { Library, LibraryScanState } from "../../domain.js";
import { isFields } from "../../http/client.js";

/**
 * Whether a Jellyfin or Emby server is scanning a library, from its own
 * signals (both descriptions): the scheduled task that scans every library
 * (`GET /ScheduledTasks`: `Key` "RefreshLibrary", "Scan Media Library",
 * `State` "Running"), and each virtual folder's own refresh
 * (`VirtualFolderInfo.RefreshStatus` "Active" or "Queued", or a
 * `RefreshProgress`).
 */

/** The key both servers give the library scan task. */
const LIBRARY_SCAN_TASK = "RefreshLibrary";

/** A virtual folder's refresh as the server reports it: the ids it goes by, its name, and whether it is refreshing. */
export interface FolderRefresh {
  ids: string[];
  name: string;
  refreshing: boolean;
}

/** `TaskInfo[]` → whether the library scan task runs (a task being cancelled still scans until it stops). */
export function readLibraryScanRunning(data: unknown): boolean {
  if (!Array.isArray(data)) throw new Error("expected a list of scheduled tasks");
  return data.some((task) => isFields(task) && task.Key === LIBRARY_SCAN_TASK && (task.State === "Running" || task.State === "Cancelling"));
}

/** Jellyfin's `VirtualFolderInfo[]`, or Emby's `{Items: VirtualFolderInfo[]}` (`/Library/VirtualFolders/Query`). */
export function readFolderRefreshes(data: unknown): FolderRefresh[] {
  const list = Array.isArray(data) ? data : isFields(data) && Array.isArray(data.Items) ? data.Items : undefined;
  if (!list) throw new Error("expected a list of virtual folders");
  return list.flatMap((entry) => {
    if (!isFields(entry)) return [];
    const ids = [entry.ItemId, entry.Id, entry.Guid].filter((id): id is string => typeof id === "string" && id !== "");
    const status = typeof entry.RefreshStatus === "string" ? entry.RefreshStatus : "Idle";
    const refreshing = status === "Active" || status === "Queued" || typeof entry.RefreshProgress === "number";
    return [{ ids, name: typeof entry.Name === "string" ? entry.Name : "", refreshing }];
  });
}

/** The libraries with whether each is scanning: all of them while the scan task runs, else each by its folder's refresh. */
export function libraryStatesOf(
  libraries: readonly Library[],
  folders: readonly FolderRefresh[],
  taskRunning: boolean,
): LibraryScanState[] {
  return libraries.map((library) => {
    // Emby's media folder ids and its virtual folders' ids are the same item's; the name is the last resort.
    const folder = folders.find((f) => f.ids.includes(library.id)) ?? folders.find((f) => f.name !== "" && f.name === library.title);
    return { ...library, refreshing: taskRunning || (folder?.refreshing ?? false) };
  });
}
