import type { IngestOutcome } from "../domain.js";
import type { Ingest } from "../ingest/pipeline.js";
import { logOutcome } from "../ingest/report.js";
import type { Logger } from "../lib/logger.js";
import { PathError, type PathMapper } from "../paths/index.js";
import type { WatchedLog } from "./change-logs.js";
import type { ChangeFilter } from "./filters.js";
import type { FolderCache } from "./folder-cache.js";
import type { PathResolver } from "./path-resolver.js";
import type { PathReader } from "./remote-view.js";
import { FOLDER_MIME, type DriveChange, type DriveItem } from "./types.js";

const GOOGLE_APPS_PREFIX = "application/vnd.google-apps.";

/** Answers whether the media server already holds a file (the Plex DB's media_parts). */
export interface MediaIndex {
  hasFile(serverPath: string): boolean;
}

export interface PageContext {
  log: WatchedLog;
  cache: FolderCache;
  resolver: PathResolver;
  /** Reads resolved paths through the rclone remote's folder and crypt names; undefined: as Drive names them. */
  reader: PathReader | undefined;
  filter: ChangeFilter;
  /** Maps a drive path for the media index; the way in maps it again for the scan. */
  mapper: PathMapper;
  /** The one way in: SERVER_IGNORE_LIST, the folder, the library check, the commit. */
  ingest: Ingest;
  mediaIndex: MediaIndex | undefined;
  logger: Logger;
  /** A shared drive renamed itself in its own log. */
  onDriveRenamed(name: string): void;
}

export interface PageStats {
  changes: number;
  files: number;
  queued: number;
  known: number;
  /** On SERVER_IGNORE_LIST. */
  ignored: number;
  /** In no library of the media server. */
  unmatched: number;
  filtered: number;
  unmapped: number;
  unresolved: number;
  /** In a crypt folder, but not encrypted by its remote. */
  undecodable: number;
}

/** Counts of one page (or one poll), all zero. */
export function noStats(changes = 0): PageStats {
  return { changes, files: 0, queued: 0, known: 0, ignored: 0, unmatched: 0, filtered: 0, unmapped: 0, unresolved: 0, undecodable: 0 };
}

/**
 * Turns one page of changes into committed scans. Folder changes go into the
 * cache first, so files in a folder created or moved on the same page resolve
 * without a call. Each file change is the file's current state, so a rename or
 * move is simply a file at a new path; the media index tells new from known.
 * The page's new files go through the way in as one request (committed in one
 * transaction, before this resolves); a file that cannot be mapped was left
 * out before, so it cannot refuse the others.
 */
export async function handleChangePage(changes: DriveChange[], ctx: PageContext): Promise<PageStats> {
  const stats = noStats(changes.length);
  const upserts: DriveItem[] = [];
  const removals: string[] = [];
  const files: DriveItem[] = [];
  for (const change of changes) {
    if (change.changeType === "drive") {
      if (change.drive && change.drive.id === ctx.log.driveId) ctx.onDriveRenamed(change.drive.name);
      continue;
    }
    const file = change.file;
    if (change.removed || !file || !belongsTo(file, ctx.log)) {
      if (change.fileId) removals.push(change.fileId);
    } else if (file.mimeType === FOLDER_MIME) {
      if (file.trashed) removals.push(file.id);
      else upserts.push(file);
    } else if (!file.trashed && !file.mimeType.startsWith(GOOGLE_APPS_PREFIX)) {
      // Google Docs and shortcuts have no file on the mount, whatever their name says.
      files.push(file);
    }
  }
  ctx.cache.apply(ctx.log.logKey, upserts, removals);

  const resolved: Array<string | undefined> = [];
  for (const file of files) resolved.push(await ctx.resolver.resolveFile(file));
  ctx.reader?.prepare(resolved.filter((p): p is string => p !== undefined));
  const newFiles: string[] = [];
  for (const [i, file] of files.entries()) {
    stats.files++;
    const drivePath = newFileOf(file, resolved[i], ctx, stats);
    if (drivePath !== undefined) newFiles.push(drivePath);
  }
  if (newFiles.length === 0) return stats;
  // Each request names its file, so with SERVER_MAX_FILE_CHECKS the scan waits until the mount shows it
  // (rclone's poll interval, a crypt remote's decoded name): Plex never scans before the file is there.
  const requested = newFiles.map((path) => ({ path, kind: "file" as const }));
  const outcome = await ctx.ingest(requested, "drive", "DriveChange");
  countOutcome(outcome, stats, newFiles.length);
  logOutcome(ctx.logger, outcome);
  return stats;
}

/** The drive path of a file to scan: one in the watched folders, allowed by CLOUD.ALLOWED, mappable and new to the media server. */
function newFileOf(file: DriveItem, resolved: string | undefined, ctx: PageContext, stats: PageStats): string | undefined {
  const read = resolved === undefined ? undefined : (ctx.reader?.read(resolved) ?? { kind: "plain", path: resolved });
  if (read === undefined || read.kind === "outside") {
    stats.unresolved++;
    ctx.logger.debug({ id: file.id, name: file.name }, "Drive change outside the watched folders; skipped");
    return undefined;
  }
  if (read.kind === "undecodable") {
    stats.undecodable++;
    return undefined;
  }
  const drivePath = read.path;
  // Drive calls every crypt file application/octet-stream: only the decoded name says what it is.
  const rejected = ctx.filter(drivePath, read.kind === "decoded" ? undefined : file.mimeType);
  if (rejected) {
    stats.filtered++;
    ctx.logger.debug({ path: drivePath, rejected }, "Drive change filtered out by CLOUD.ALLOWED");
    return undefined;
  }
  let serverPath: string;
  try {
    serverPath = ctx.mapper.toServerPath(drivePath);
  } catch (error) {
    if (!(error instanceof PathError)) throw error;
    stats.unmapped++;
    // No SERVER_PATH_MAPPINGS prefix covers it, or a name on the way holds a control character: the error says which.
    ctx.logger.warn({ path: drivePath, error: error.message }, "Drive file skipped: it has no usable media-server path");
    return undefined;
  }
  if (ctx.mediaIndex?.hasFile(serverPath)) {
    stats.known++;
    return undefined;
  }
  ctx.logger.info({ path: drivePath, serverPath }, "New file on the drive, not in the media server yet");
  return drivePath;
}

/** Files left out on the way in count as ignored (by path) and unmatched (by folder); a refused page as unmapped. */
function countOutcome(outcome: IngestOutcome, stats: PageStats, files: number): void {
  if (outcome.result === "queued") {
    stats.queued = outcome.queued.length + outcome.covered.length;
    stats.ignored = outcome.ignored.length;
    stats.unmatched = outcome.unmatched.length;
  } else if (outcome.result === "unmatched") stats.unmatched = outcome.paths.length;
  else if (outcome.result === "refused") stats.unmapped += files;
  else stats.ignored = files;
}

/** My Drive's log also reports shared-drive items; those belong to (and are handled by) their own log. */
function belongsTo(file: DriveItem, log: WatchedLog): boolean {
  return file.driveId === log.driveId;
}
