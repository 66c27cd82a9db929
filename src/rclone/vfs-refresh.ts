import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import { normalizeRemoteDir, type RcClient } from "./rc-client.js";
import { RcCommandError } from "./rc-errors.js";
import { messageOf } from "../lib/errors.js";

export interface VfsRefreshOutcome {
  /** Each requested folder now refreshed, with the folder rclone refreshed for it (itself or its nearest existing parent). */
  refreshed: Map<string, string>;
  /** Requested folders that could not be refreshed, with why. */
  failed: Map<string, string>;
  /** HTTP calls made to vfs/refresh. */
  calls: number;
  /** Set when the remote control could not be used at all this time (unreachable, refused, no VFS). */
  unavailable?: string;
}

/** Refreshes rclone's directory cache for folders, walking up to the nearest folder rclone knows. */
export interface VfsRefresher {
  refreshNearest(dirs: readonly string[]): Promise<VfsRefreshOutcome>;
}

export interface VfsRefresherDeps {
  client: RcClient;
  /** The VFS to refresh (RCLONE.RC_CACHE_REFRESH.FS); empty: the only one, or every one when several are active. */
  fs?: string;
  clock: Pick<Clock, "now">;
  logger: Logger;
  /** How long the vfs/list answer is reused (default 60 s). */
  vfsListTtlMs?: number;
}

// Deeper than any real library path; bounds the walk if rclone misbehaves.
const MAX_LEVELS = 64;

/**
 * A new folder is not in rclone's cache, so refreshing it answers "file does
 * not exist": then its parent is refreshed, and so on up to the root, one
 * call per level for all folders of that level. A parent's plain (non
 * recursive) refresh is enough: the new child is listed, and its contents
 * are read from the remote when first looked at. Never recursive, so a walk
 * that reaches the root does not list the whole remote.
 */
export function createVfsRefresher(deps: VfsRefresherDeps): VfsRefresher {
  const ttl = deps.vfsListTtlMs ?? 60_000;
  let listed: { at: number; names: string[] } | undefined;
  let problem: string | undefined;

  const report = (next: string | undefined): void => {
    if (next === problem) return;
    if (next !== undefined) deps.logger.warn({ error: next }, "rclone cache refresh cannot be used; file checks go on without it");
    else if (problem !== undefined) deps.logger.info("rclone cache refresh works again");
    problem = next;
  };

  const targets = async (): Promise<Array<string | undefined>> => {
    if (deps.fs) return [deps.fs];
    if (!listed || deps.clock.now() - listed.at >= ttl) listed = { at: deps.clock.now(), names: await deps.client.listVfs() };
    if (listed.names.length === 0) throw new RcCommandError("rclone runs no VFS: start rclone mount (or serve) with --rc", 200);
    return listed.names.length === 1 ? [undefined] : listed.names;
  };

  return {
    async refreshNearest(dirs) {
      const outcome: VfsRefreshOutcome = { refreshed: new Map(), failed: new Map(), calls: 0 };
      const wanted = [...new Set(dirs.map(normalizeRemoteDir))];
      if (wanted.length === 0) return outcome;
      try {
        // With several VFS and no FS configured, a folder is looked for in each: a walk in the wrong one
        // reaches its root, so a folder refreshed as itself somewhere wins over one refreshed through a parent.
        for (const fs of await targets()) {
          const left = wanted.filter((d) => outcome.refreshed.get(d) !== d);
          if (left.length > 0) await walkUp(deps.client, left, fs, outcome);
        }
        for (const dir of outcome.refreshed.keys()) outcome.failed.delete(dir);
        report(undefined);
      } catch (error) {
        // The VFS set may have changed (a mount added or gone): list it again next time.
        listed = undefined;
        outcome.unavailable = messageOf(error);
        // Reachability and credentials are logged by the client; what is left is ours to say.
        if (error instanceof RcCommandError) report(outcome.unavailable);
      }
      return outcome;
    },
  };
}

async function walkUp(client: RcClient, dirs: string[], fs: string | undefined, outcome: VfsRefreshOutcome): Promise<void> {
  const known = new Map<string, boolean>();
  let level = new Map<string, string[]>(dirs.map((d) => [d, [d]]));
  for (let depth = 0; level.size > 0 && depth < MAX_LEVELS; depth++) {
    const asked = [...level.keys()];
    const result = await client.refresh(asked, fs === undefined ? {} : { fs });
    outcome.calls += asked.includes("") && asked.length > 1 ? 2 : 1;
    for (const dir of result.refreshed) {
      known.set(dir, true);
      for (const requester of level.get(dir) ?? []) settle(outcome, requester, dir);
    }
    for (const failure of result.failed) known.set(failure.dir, false);
    const next = new Map<string, string[]>();
    for (const failure of result.failed) {
      const requesters = level.get(failure.dir) ?? [];
      const parent = parentDir(failure.dir);
      if (!failure.missing || parent === undefined || known.get(parent) === false) {
        for (const requester of requesters) outcome.failed.set(requester, failure.message);
      } else if (known.get(parent) === true) {
        // Refreshed in this very call: the new folder is listed now.
        for (const requester of requesters) settle(outcome, requester, parent);
      } else {
        next.set(parent, [...(next.get(parent) ?? []), ...requesters]);
      }
    }
    level = next;
  }
}

/** Keeps the closest refresh seen for a folder (itself beats a parent, a deeper parent beats the root). */
function settle(outcome: VfsRefreshOutcome, requester: string, refreshed: string): void {
  const before = outcome.refreshed.get(requester);
  if (before === undefined || refreshed.length > before.length) outcome.refreshed.set(requester, refreshed);
}

function parentDir(dir: string): string | undefined {
  if (dir === "") return undefined;
  const cut = dir.lastIndexOf("/");
  return cut < 0 ? "" : dir.slice(0, cut);
}
