/**
 * The after-scan capability of a target (`Target.afterScan`, domain.ts):
 * what the after-scan work (src/delivery/after-scan/) asks of a media server
 * once a scan was delivered. Reading calls (which libraries are scanning,
 * which named files the server lists, the trash's size) go straight out;
 * every call that makes the server read the mount (analyze, item refresh,
 * empty trash) is handed over as an `ItemCall` or a method the worker sends
 * through the anchor gate itself: a target knows nothing of gates or queues.
 * Plex implements it (targets/plex/after-scan.ts), and Jellyfin and Emby
 * (targets/media-browser/after-scan.ts).
 */

/** The server's item holding a file. Plex's field names: the queue keeps these in a confirmation's progress. */
export interface ItemRef {
  file: string;
  /** The item's id on the server (Plex: its ratingKey). */
  ratingKey: string;
  /** Its parent's (a season, an album); absent for an item without one (a movie). */
  parentRatingKey?: string;
  /** The sidecar this item was found for (its video is `file`); absent when `file` itself was named. */
  named?: string;
}

/** A library as a confirmation polls it. */
export interface LibraryScanState {
  id: string;
  title: string;
  type: string;
  /** Its folders, in the server's path form. */
  locations: string[];
  /** The server is scanning it now. */
  refreshing: boolean;
}

/** Named files to look for in one library. */
export interface FindFilesRequest {
  library: { id: string; locations: readonly string[] };
  files: readonly string[];
}

export interface FoundFiles {
  /** Per request, in order: each file the server lists → the items it stands for (a sidecar: its videos'). */
  found: Array<Map<string, ItemRef[]>>;
  /** Where the answer came from, for the log ("database", "api"). */
  source: string;
  /** Why the faster source could not be used, when it was configured. */
  sourceProblem?: string;
}

/** One call that makes the server read the mount, for the items `keys`; the worker sends it through the anchor gate. */
export interface ItemCall {
  keys: string[];
  run(): Promise<void>;
}

/** How long a confirmation gives the server; all in milliseconds. */
export interface ConfirmSettings {
  /** Time between two polls, and the least time a scan gets before its library counts as finished. */
  pollMs: number;
  /** How long a library may stay `refreshing` before the files are checked anyway. */
  maxWaitMs: number;
  /** How long after a scan call missing files are waited for before the folder is scanned again. */
  rescanDelayMs: number;
  /** False: wait for the library only (for analyze and empty trash) and never re-scan. */
  confirmFiles: boolean;
  /** The server's kind in what the worker says ("waiting for Jellyfin to confirm"). */
  server: string;
}

/** The guarded empty trash: on or off, the most deleted items it empties, and whether an empty trash is emptied. */
export interface TrashSettings {
  enabled: boolean;
  maxFiles: number;
  zeroDeleted: boolean;
}

/** A target's after-scan settings, read by its factory from its own config entry. */
export interface AfterScanSettings {
  confirm: ConfirmSettings;
  trash: TrashSettings;
  /** Whether delivered scans wait for their library at all (confirmation, analyze or empty trash on). */
  waitsForSection: boolean;
  /** Whether analyze calls anything at all. */
  analyzes: boolean;
}

export interface AfterScanCapability {
  readonly settings: AfterScanSettings;
  /** The server's libraries with whether each is scanning; throws a Target*Error when it cannot be asked. */
  listLibraryStates(): Promise<LibraryScanState[]>;
  /** Which of the named files the server lists, with their items; throws a Target*Error when it cannot be asked. */
  findFiles(requests: readonly FindFilesRequest[]): Promise<FoundFiles>;
  /** The analyze calls for `items` (each item or its parent, one call per item or per batch); none when analyze is off. */
  analyzeCalls(items: readonly ItemRef[]): ItemCall[];
  /** The calls refreshing each distinct item once, then those analyzing the items whose own file was named, unless in `analyzed`. */
  refreshCalls(items: readonly ItemRef[], analyzed: ReadonlySet<string>): Array<ItemCall & { kind: "refreshed" | "analyzed" }>;
  /** The library's deleted items. */
  countTrash(library: { id: string; type: string }): Promise<number>;
  /** Empties the library's trash (the worker decides whether, and sends it through the gate). */
  emptyTrash(library: { id: string }): Promise<void>;
}
