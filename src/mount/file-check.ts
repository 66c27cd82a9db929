import path from "node:path";
import type { Logger } from "../lib/logger.js";
import { createLocalPathMapper, type LocalPath } from "../paths/local.js";
import { createPrefixMapper, PathError, type PrefixMapper } from "../paths/mapper.js";
import type { VfsRefresher } from "../rclone/vfs-refresh.js";
import type { PathProbe, ProbeResult, ProbeState } from "./path-probe.js";

/** Whether one remembered file can be seen where scanarr looks for it. */
export interface FileVisibility {
  /** The file as the scan request named it (media-server form). */
  file: string;
  /** Where it was looked for (SERVER_FILE_EXIST_PATH_MAPPINGS applied); undefined when that failed. */
  localPath: string | undefined;
  visible: boolean;
  state: ProbeState;
  /** True when its folder was refreshed through rclone in this round before the last look. */
  refreshed: boolean;
  error?: string;
}

export interface FileCheckRound {
  /** One entry per input file, in input order. */
  files: FileVisibility[];
  /** What the rclone refresh did; undefined when it was not needed or is off. */
  refresh?: { folders: number; calls: number; unavailable?: string };
}

/** One check round over a batch of files; the caller (the queue's gates) keeps rounds and due times durable. */
export interface FileChecker {
  /** The subset of `files` (media-server paths) visible now, as the queue's gates want it; never rejects. */
  checkRound(files: readonly string[]): Promise<Set<string>>;
  /** The same round with the detail of every file and of the refresh. */
  runRound(files: readonly string[]): Promise<FileCheckRound>;
}

export interface FileCheckerDeps {
  probe: Pick<PathProbe, "check">;
  /** SERVER_FILE_EXIST_PATH_MAPPINGS: `{ local prefix: [media-server prefix, ...] }`; unmatched paths are used as they are. */
  existMappings: Record<string, string[]>;
  /** Present when RCLONE.RC_CACHE_REFRESH.ENABLED. */
  refresh?: {
    refresher: VfsRefresher;
    /** FILE_EXISTS_TO_REMOTE_MAPPINGS: `{ remote path: [local mount prefix, ...] }`; unmatched folders are not refreshed. */
    remoteMappings: Record<string, string[]>;
  };
  logger: Logger;
}

const VISIBLE: ReadonlySet<ProbeState> = new Set(["file", "folder", "empty-folder"]);

/**
 * Looks for every file once (bounded by the probe); for the ones not there,
 * refreshes rclone's cache of their folders in as few calls as the folder
 * depth allows (each folder once, however many files wait in it), then looks
 * for those files again. No timers: the queue's scheduler runs one round at a
 * time and decides when the next one is due.
 */
export function createFileChecker(deps: FileCheckerDeps): FileChecker {
  const toLocal = createLocalPathMapper(deps.existMappings);
  const toRemote = deps.refresh ? createPrefixMapper(deps.refresh.remoteMappings, "FILE_EXISTS_TO_REMOTE_MAPPINGS") : undefined;

  const look = async (entry: FileVisibility): Promise<void> => {
    if (entry.localPath === undefined) return;
    const result: ProbeResult = await deps.probe.check(entry.localPath);
    entry.state = result.state;
    entry.visible = VISIBLE.has(result.state);
    if (result.error === undefined) delete entry.error;
    else entry.error = result.error;
  };

  const runRound = async (files: readonly string[]): Promise<FileCheckRound> => {
    const entries = files.map((file) => localEntry(file, toLocal));
    await Promise.all(entries.map(look));
    // A stalled mount ("timeout") is not refreshed: rclone is the one not answering.
    const unseen = entries.filter((e) => e.state === "missing" && e.localPath !== undefined);
    if (!deps.refresh || !toRemote || unseen.length === 0) return { files: entries };
    const byRemote = new Map<string, FileVisibility[]>();
    for (const entry of unseen) {
      const remote = remoteFolder(path.posix.dirname(entry.localPath as string), toRemote);
      if (remote === undefined) {
        deps.logger.debug({ file: entry.localPath }, "no FILE_EXISTS_TO_REMOTE_MAPPINGS entry covers this file; not refreshed");
        continue;
      }
      byRemote.set(remote, [...(byRemote.get(remote) ?? []), entry]);
    }
    if (byRemote.size === 0) return { files: entries };
    const outcome = await deps.refresh.refresher.refreshNearest([...byRemote.keys()]);
    const again: FileVisibility[] = [];
    for (const [remote, waiting] of byRemote) {
      if (!outcome.refreshed.has(remote)) continue;
      for (const entry of waiting) entry.refreshed = true;
      again.push(...waiting);
    }
    await Promise.all(again.map(look));
    const refresh = { folders: byRemote.size, calls: outcome.calls };
    return { files: entries, refresh: outcome.unavailable === undefined ? refresh : { ...refresh, unavailable: outcome.unavailable } };
  };

  return {
    runRound,
    async checkRound(files) {
      const round = await runRound(files);
      return new Set(round.files.filter((f) => f.visible).map((f) => f.file));
    },
  };
}

function localEntry(file: string, toLocal: (file: string) => LocalPath): FileVisibility {
  const entry: FileVisibility = { file, localPath: undefined, visible: false, state: "missing", refreshed: false };
  const local = toLocal(file);
  if ("error" in local) entry.error = local.error;
  else entry.localPath = local.path;
  return entry;
}

/** The folder as rclone names it, or undefined when no mapping covers it. */
function remoteFolder(localFolder: string, toRemote: PrefixMapper): string | undefined {
  try {
    const remote = toRemote.map(localFolder);
    // plex_autoscan strips the leading separator too: "/" and "" both name the remote's root.
    return remote === undefined ? undefined : remote.replace(/^[\\/]+|[\\/]+$/g, "");
  } catch (error) {
    if (error instanceof PathError) return undefined;
    throw error;
  }
}
