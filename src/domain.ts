/**
 * The contract of scanarr in one place: the Scan noun, where requests come
 * from, where scans go, and errors named by how the caller reacts.
 */

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
}

/** A media-server library (Plex calls it a section). */
export interface Library {
  id: string;
  title: string;
  type: string;
  /** Folders of the library, in the media server's path form. */
  locations: string[];
}

/** Where scans are delivered. One implementation per media server or method. */
export interface Target {
  readonly name: string;
  /** Scan calls the server takes at once; the scheduler sends no more (default: its policy's concurrency). */
  readonly maxInFlight?: number;
  /** Libraries of the media server; throws a Target*Error when it cannot tell. */
  listLibraries(): Promise<Library[]>;
  /**
   * Scan `folder` in `library`; resolves when the media server accepted it.
   * `files` (same path form, inside `folder`) lets a server that can scan
   * single files (Jellyfin, Emby) narrow the scan; others ignore it.
   */
  scan(folder: string, library: Library, files?: readonly string[]): Promise<void>;
}

/** Durable sink of scan requests; returns once the requests are committed. */
export interface ScanSink {
  enqueue(requests: ScanRequest[]): EnqueueOutcome;
}

export interface EnqueueOutcome {
  /** Folders that now have a pending scan (new, merged or absorbing children). */
  queued: string[];
  /** Folders already covered by a pending scan of themselves or a parent. */
  covered: string[];
}

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
