import { identityOf } from "./loop-guard.js";
import path from "node:path";
import type { PathFilter } from "./filter.js";
import { isGone, type WatchFs, type WatchStat } from "./fs.js";
import type { Change, FileMark } from "./settle.js";
import type { DirSnap } from "./store.js";

/** A folder changed this recently may change again within the same timestamp tick: list it again next round. */
const RACY_MS = 2_000;
const CONCURRENCY = 2;

export interface RoundInput {
  root: string;
  snapshot: ReadonlyMap<string, DirSnap>;
  detect: "mtime" | "listing";
  filter: PathFilter;
  fs: WatchFs;
  wallNow: () => number;
}

export interface Observed {
  file: string;
  folder: string;
  change: Change;
  mark?: FileMark;
}

export interface RoundResult {
  outcome: "ok" | "root-missing" | "root-empty";
  upserts: Map<string, DirSnap>;
  deletes: string[];
  observed: Observed[];
  /** Files stat'ed by the walk; the re-check of growing files skips them. */
  statted: Set<string>;
  /** Folders that could not be read (permissions, I/O): kept as they were. */
  unreadable: string[];
}

/**
 * One poll round over `root`: a folder whose time (or, with "listing", whose
 * entries) matches the snapshot is not listed, and its sub-folders are
 * visited from the snapshot, so an unchanged tree costs one stat (or one
 * listing) per folder. A changed folder is listed and its media files are
 * compared. The first round over an empty snapshot only records the tree.
 */
export async function runPollRound(input: RoundInput): Promise<RoundResult> {
  const result = emptyResult();
  const rootStat = await input.fs.stat(input.root).catch(() => undefined);
  if (!rootStat?.isDirectory()) return { ...result, outcome: "root-missing" };
  const round: Round = { input, result, rootStat, baseline: input.snapshot.size === 0 };
  // A few folders at a time: network mounts answer faster in parallel, and a hung mount can hold at most this many threads.
  for (let frontier = [input.root]; frontier.length > 0 && result.outcome === "ok"; ) {
    const next: string[] = [];
    for (let i = 0; i < frontier.length; i += CONCURRENCY) {
      const children = await Promise.all(frontier.slice(i, i + CONCURRENCY).map((dir) => visit(round, dir)));
      for (const list of children) next.push(...list);
    }
    frontier = next;
  }
  return result.outcome === "ok" ? result : { ...emptyResult(), outcome: result.outcome };
}

interface Round {
  input: RoundInput;
  result: RoundResult;
  rootStat: WatchStat;
  baseline: boolean;
}

/** Compares one folder with the snapshot; returns the sub-folders to visit next. */
async function visit(round: Round, dir: string): Promise<string[]> {
  const { input, result, baseline } = round;
  const snap = input.snapshot.get(dir);
  const isRoot = dir === input.root;
  const known = () => (snap?.dirs ?? []).map((d) => path.join(dir, d));
  let stat: WatchStat | undefined;
  if (input.detect === "mtime") {
    stat = isRoot ? round.rootStat : await input.fs.stat(dir).catch((error: unknown) => failed(input, result, dir, error, snap));
    if (!stat) return [];
    const sameRoot = !isRoot || snap?.identity === identityOf(stat);
    if (snap && snap.mtimeMs === stat.mtimeMs && sameRoot) return known();
  }
  const listing = await list(input, dir).catch((error: unknown) => failed(input, result, dir, error, snap));
  if (!listing) return [];
  if (isRoot && listing.empty && snap && (snap.dirs.length > 0 || Object.keys(snap.files).length > 0)) {
    result.outcome = "root-empty";
    return [];
  }
  if (input.detect === "listing" && snap && sameNames(snap, listing)) return known();
  const next: DirSnap = { mtimeMs: stat && stat.mtimeMs < input.wallNow() - RACY_MS ? stat.mtimeMs : -1, dirs: listing.dirs, files: {} };
  if (isRoot && stat) next.identity = identityOf(stat);
  for (const name of listing.files) {
    const file = path.join(dir, name);
    const old = snap?.files[name];
    if (input.detect === "listing" && (old || baseline)) {
      next.files[name] = old ?? [-1, -1];
      continue;
    }
    const info = await input.fs.stat(file).catch(() => undefined);
    if (!info) continue;
    result.statted.add(file);
    next.files[name] = [info.size, info.mtimeMs];
    if (!baseline && (!old || old[0] !== info.size || old[1] !== info.mtimeMs)) {
      result.observed.push({ file, folder: dir, change: "present", mark: { size: info.size, mtimeMs: info.mtimeMs } });
    }
  }
  for (const name of Object.keys(snap?.files ?? {})) {
    if (!(name in next.files)) result.observed.push({ file: path.join(dir, name), folder: dir, change: "removed" });
  }
  for (const sub of snap?.dirs ?? []) if (!listing.dirs.includes(sub)) forgetTree(input, result, path.join(dir, sub), dir);
  result.upserts.set(dir, next);
  return listing.dirs.map((d) => path.join(dir, d));
}

function emptyResult(): RoundResult {
  return { outcome: "ok", upserts: new Map(), deletes: [], observed: [], statted: new Set(), unreadable: [] };
}

async function list(input: RoundInput, dir: string): Promise<{ dirs: string[]; files: string[]; empty: boolean }> {
  const entries = await input.fs.readdir(dir);
  const dirs: string[] = [];
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (!isDir && !isFile) {
      // Symlinks and filesystems that do not report entry types: ask. A linked folder is not entered (no loops).
      const info = await input.fs.stat(full).catch(() => undefined);
      isFile = info?.isFile() ?? false;
      isDir = !entry.isSymbolicLink() && (info?.isDirectory() ?? false);
    }
    if (isDir && !input.filter.skipsDir(full)) dirs.push(entry.name);
    else if (isFile && input.filter.isMedia(full)) files.push(entry.name);
  }
  return { dirs: dirs.sort(), files: files.sort(), empty: entries.length === 0 };
}

function sameNames(snap: DirSnap, listing: { dirs: string[]; files: string[] }): boolean {
  const files = Object.keys(snap.files).sort();
  return equal(snap.dirs, listing.dirs) && equal(files, listing.files);
}

function equal(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** A folder vanished between its parent's listing and now, or could not be read. */
function failed(input: RoundInput, result: RoundResult, dir: string, error: unknown, snap: DirSnap | undefined): undefined {
  if (!isGone(error) || dir === input.root) {
    result.unreadable.push(dir);
    return undefined;
  }
  const parent = path.dirname(dir);
  const parentSnap = result.upserts.get(parent) ?? input.snapshot.get(parent);
  if (parentSnap) {
    result.upserts.set(parent, { ...parentSnap, mtimeMs: -1, dirs: parentSnap.dirs.filter((d) => d !== path.basename(dir)) });
  }
  if (snap) forgetTree(input, result, dir, parent);
  return undefined;
}

/** A removed folder: one "removed-dir" change for its parent, and its whole subtree leaves the snapshot. */
function forgetTree(input: RoundInput, result: RoundResult, dir: string, parent: string): void {
  result.observed.push({ file: dir, folder: parent, change: "removed-dir" });
  const prefix = dir + path.sep;
  for (const known of input.snapshot.keys()) if (known === dir || known.startsWith(prefix)) result.deletes.push(known);
}
