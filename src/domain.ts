/**
 * The contract of scanarr in one place: the Scan noun, where requests come
 * from, where scans go, and errors named by how the caller reacts.
 */
import type { AfterScanCapability } from "./target-after-scan.js";

export type * from "./target-after-scan.js";

/** One request to scan a folder, already in the media server's own path form. */
export interface ScanRequest {
  /** Media-server folder to scan (a file's parent, or the folder itself). */
  folder: string;
  /** Who asked: "sonarr", "radarr", "lidarr", "readarr", "manual", "drive". */
  source: string;
  /** The event that caused it ("Download", "Rename", "Manual", "DriveChange", ...). */
  event: string;
  /**
   * Files the request named, in the same path form as `folder` and inside it
   * (an import, an upgrade, a manual file path). Absent or empty when the
   * request named only a folder.
   */
  files?: string[];
  /** True when the event removed `files` (a delete, a rename's old path): they are expected to be gone. */
  deletion?: boolean;
  /**
   * True when the items holding `files` must be refreshed (a sidecar: the
   * item of its video; docs/item-refresh.md), on every target that can.
   */
  refresh?: boolean;
  /**
   * False when the request needs no folder scan on a target that knows the
   * item of every file (only sidecars were named): that target refreshes the
   * items and scans nothing. True (the default) otherwise.
   */
  scanFolder?: boolean;
  /** The source's PRIORITY (SOURCES); absent: SERVER_SCAN_PRIORITIES decides by folder. Lower is delivered first. */
  priority?: number;
  /** The source's DELAY in ms (SOURCES); absent: SERVER_SCAN_DELAY. */
  delayMs?: number;
  /** The source's batch is complete (Sonarr's Import Complete): due at once, waiting requests merged in, file checks still apply. */
  dueNow?: boolean;
  /**
   * The paths the source named that led here, each with the media server's
   * path it was mapped to and the SERVER_PATH_MAPPINGS entry that did it
   * (kept for `scanarr status` and the reasons). Absent: the folder itself.
   */
  origins?: ReadonlyArray<{ path: string; mapped: string; mappingKey?: string; mappingPrefix?: string }>;
}

/** The regular-expression rewrite that changed a path: its dotted config path, the rule, and what it made of the path. */
export interface RewriteHit {
  rule: string;
  from: string;
  to: string;
  result: string;
}

/** A media-server library (Plex calls it a section). */
export interface Library {
  id: string;
  title: string;
  type: string;
  /** Folders of the library, in the media server's path form. */
  locations: string[];
}

/** The TARGETS[].TYPE values, spelled once: the config schema and the target registry read them from here. */
// biome-ignore format: one line per list of names
export const TARGET_TYPES = ["plex", "jellyfin", "emby", "autoscan", "tdarr", "sonarr", "radarr", "command", "audiobookshelf", "fileflows"] as const;

export type TargetType = (typeof TARGET_TYPES)[number];

/**
 * Where scans are delivered: one implementation per media server or method.
 * What delivery, the path tracer, doctor, /health and after-scan work need
 * of a target is declared here once, as capabilities; no caller asks which
 * kind of server it is.
 */
export interface Target {
  readonly name: string;
  /** Scan calls the server takes at once; the scheduler sends no more (default: its policy's concurrency). */
  readonly maxInFlight?: number;
  /**
   * True: a folder is scanned once in each library holding it (Plex: a
   * folder may sit in a 4K and a 1080p library). False: one call covers the
   * folder whatever library holds it (Jellyfin, Emby, autoscan).
   */
  readonly scansPerLibrary: boolean;
  /**
   * True when Plex's after-scan work (confirmation, analyze, the guarded
   * empty trash, hooks around the scan) can follow this target's scans.
   * Absent: none of it.
   */
  readonly confirms?: boolean;
  /** Where it is, for messages (a URL without credentials, a scanner path). */
  readonly where?: string;
  /** Libraries of the media server; throws a Target*Error when it cannot tell. */
  listLibraries(): Promise<Library[]>;
  /**
   * Scan `folder` in `library`; resolves when the media server accepted it.
   * `files` (same path form, inside `folder`) lets a server that can scan
   * single files (Jellyfin, Emby) narrow the scan; others ignore it.
   */
  scan(folder: string, library: Library, files?: readonly string[]): Promise<void>;
  /**
   * Proves the credentials may scan (an admin-only call for Plex), for
   * doctor; resolves with what was proven, throws otherwise. Absent when
   * there is nothing beyond listing the libraries to prove.
   */
  checkAccess?(): Promise<string>;
  /** What the last real exchange with the server showed, for /health. Absent when the target does not record it. */
  contact?(): Contact;
  /**
   * Refreshes the items holding `files` (same path form as a scan's files)
   * in `library`: a video's own item, a sidecar's video's item
   * (paths/sidecars.ts); a video named itself had its media changed, so Plex
   * also analyzes it. Each item is refreshed once however many files name
   * it. Resolves with the files the server has no item for (nothing was done
   * for those); throws a Target*Error when the server cannot be asked.
   * Absent: the target cannot refresh items (autoscan, Plex Media Scanner);
   * its deliveries scan the folder instead.
   */
  refreshItems?(files: readonly string[], library: Library): Promise<ItemRefreshReport>;
  /** What the after-scan work may ask once a scan was delivered (target-after-scan.ts); absent: none follows. */
  readonly afterScan?: AfterScanCapability;
}

/** What a target's item refresh did. */
export interface ItemRefreshReport {
  /** Distinct items refreshed. */
  refreshed: number;
  /** Files with no item on the server: the folder scan finds them. */
  unknown: string[];
}

/** What the last real exchange with a media server showed; "unknown" until it answered or failed once. */
export type ContactState = "unknown" | "ok" | "unavailable" | "refused";

export interface Contact {
  state: ContactState;
  /** Clock time of the last exchange; absent while unknown. */
  at?: number;
}

/**
 * A target's library list as the service keeps it: shared by delivery and
 * the HTTP side, refetched when stale, on a miss (rate-limited) and after an
 * outage. Implemented by targets/library-cache.ts.
 */
export interface TargetLibraries {
  /** The last list the server gave, or undefined until one fetch succeeded. Never blocks. */
  knownLibraries(): Library[] | undefined;
  /** The libraries holding `folder`, longest location first; refetches (rate-limited) on a miss. */
  librariesFor(folder: string): Promise<Library[]>;
  /** Refetches unless one started recently; never throws. */
  refreshLibraries(): Promise<void>;
}

/**
 * One target as the running service holds it: the target, its library
 * list, its own path form, and the periodic library fetch. Built by the
 * target registry (targets/registry.ts); each consumer takes the part it
 * needs (`Pick<TargetRuntime, …>`).
 */
export interface TargetRuntime {
  readonly target: Target;
  readonly libraries: TargetLibraries;
  /** The path this target sees for a media-server path (after SERVER_PATH_MAPPINGS); identity without PATH_MAPPINGS. */
  toTargetPath(path: string): string;
  /** The same, saying which of the target's REWRITES changed the path (for the tracer); absent when it has none. */
  explainTargetPath?(path: string): { rewrite?: RewriteHit };
  /** Fetches the libraries now and then every 5 minutes; failures are logged, never thrown. */
  start(): void;
  /** Stops the periodic fetch; a scan in flight is not interrupted. */
  stop(): void;
}

/**
 * Where every source's scan requests go. Resolves only once the requests are
 * committed (so an answer built from the outcome is never a lie); rejects,
 * committing none of them, when they cannot be.
 */
export interface ScanSink {
  enqueue(requests: ScanRequest[]): Promise<EnqueueOutcome>;
}

export interface EnqueueOutcome {
  /** Folders that now have a pending scan (new, merged or absorbing children). */
  queued: string[];
  /** Folders already covered by a pending scan of themselves or a parent. */
  covered: string[];
}

/** A path exactly as a source named it (a webhook, a form, a watched folder, a drive), before SERVER_PATH_MAPPINGS. */
export interface RequestedPath {
  path: string;
  /**
   * "file": scan its parent folder; "folder": scan it; "unknown": a manual
   * path the way in classifies with folderToScan after mapping.
   */
  kind: "file" | "folder" | "unknown";
  /** The event removed this file (a delete, an upgrade's replaced file, a rename's old name). */
  deleted?: boolean;
  /**
   * The item holding this file must be refreshed: the file was replaced in
   * place (an upgrade that kept the name, a remux). A sidecar (a subtitle, an
   * .nfo, artwork: paths/sidecars.ts) needs no flag; its video's item is
   * refreshed anyway.
   */
  refresh?: boolean;
}

/** The media servers' libraries as far as they are known; the way in refuses folders no library holds. */
export interface LibraryCatalog {
  /** undefined until the libraries could be read once. */
  knownLibraries(): Library[] | undefined;
  refreshLibraries(): Promise<unknown>;
  /**
   * The libraries holding `folder` (media-server path form) on any target,
   * each in its own path form; undefined when that cannot be told yet.
   */
  librariesHolding(folder: string): Library[] | undefined;
  /**
   * The locations of the libraries holding `path` (media-server path form),
   * each written in that same form, as ancestors of `path`; undefined when
   * that cannot be told yet.
   */
  libraryRootsOf(path: string): string[] | undefined;
}

/**
 * What became of one request on the way in, the same for every source: the
 * HTTP routes answer it, the watchers and drive monitoring log it.
 */
export type IngestOutcome =
  /** Committed. `ignored` and `unmatched` are the paths left out on the way. */
  | { result: "queued"; source: string; event: string; queued: string[]; covered: string[]; ignored: string[]; unmatched: string[] }
  /** Nothing to scan: a test event, an event that names no files, or every path on SERVER_IGNORE_LIST. */
  | { result: "test" | "ignored"; source: string; event: string; message: string }
  /** No library of any target holds the folders; nothing was queued. */
  | { result: "unmatched"; source: string; event: string; message: string; paths: string[]; libraries: Library[] }
  /** A path cannot be mapped to the media server's form or is not a path; nothing was queued. */
  | { result: "refused"; source: string; event: string; message: string };

/** The media server refused our credentials: stop and say so, retry slowly. */
export class TargetAuthError extends Error {
  override name = "TargetAuthError";
}

/** The media server is down, missing or failing: retry with backoff. */
export class TargetUnavailableError extends Error {
  override name = "TargetUnavailableError";
}

/** The request can never succeed as made (bad section, bad path): give up. */
export class TargetFatalError extends Error {
  override name = "TargetFatalError";
}

/**
 * The target has nothing to do for this folder (no series or movie of a
 * Sonarr or Radarr target holds it): skipped there, visibly, and neither
 * retried nor counted as a failure.
 */
export class TargetNothingToDoError extends Error {
  override name = "TargetNothingToDoError";
}

/**
 * An anchor (mount marker) was missing right before a call that makes a media
 * server read the mount: nothing was sent. Hold the work and send it once the
 * anchors are back; never count it as a failure.
 */
export class AnchorMissingError extends Error {
  override name = "AnchorMissingError";
}

/**
 * An error the user caused (bad flag, bad config, bad input). The CLI prints
 * its message on one line without a stack and exits with `exitCode`.
 */
export class UserError extends Error {
  override name = "UserError";
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

/**
 * The user interrupted (Ctrl-C, SIGTERM) before the work was done. The CLI
 * prints the message (which says what was left unchanged) and exits 130.
 */
export class InterruptedError extends Error {
  override name = "InterruptedError";
}
