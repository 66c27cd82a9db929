import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { PathProbe, ProbeResult } from "./path-probe.js";

export interface MissingAnchor {
  path: string;
  reason: string;
}

export interface AnchorStatus {
  /** True when every anchor is there (also when none is configured). */
  ok: boolean;
  missing: MissingAnchor[];
  /** Clock time of the check. */
  checkedAt: number;
}

/** Answers "may scans go out now?" from the anchors; see createAnchorMonitor. */
export interface AnchorMonitor {
  readonly anchors: readonly string[];
  /**
   * Checks every anchor in parallel, each bounded by the probe. The answer
   * always comes from a check begun after the call (a caller about to send a
   * scan must not act on a look taken before it asked). Callers share the
   * check: it begins once the one running has ended and the callers of the
   * current event-loop turn have all asked, so a batch of scan calls costs
   * one look.
   */
  check(): Promise<AnchorStatus>;
  /** The last finished check, for /health and pages that must not wait on a mount; undefined before the first. */
  current(): AnchorStatus | undefined;
}

export interface AnchorMonitorDeps {
  anchors: readonly string[];
  probe: Pick<PathProbe, "check">;
  logger: Logger;
  clock: Pick<Clock, "now">;
}

/** ANCHORS plus every PLEX_EMPTY_TRASH_CONTROL_FILES entry (plex_autoscan's guard), each once. */
export function anchorsOf(config: { ANCHORS: readonly string[]; PLEX_EMPTY_TRASH_CONTROL_FILES: readonly string[] }): string[] {
  return [...new Set([...config.ANCHORS, ...config.PLEX_EMPTY_TRASH_CONTROL_FILES])];
}

/**
 * An anchor is a file or a folder that exists only while its mount is up.
 * A folder anchor must hold something: a dropped mount leaves its mount point
 * as an empty folder. An anchor written with a trailing slash must be a
 * folder. A check that does not answer in time counts as missing. Changes are
 * logged once per anchor (missing, back), never on every check.
 */
export function createAnchorMonitor(deps: AnchorMonitorDeps): AnchorMonitor {
  const anchors = [...deps.anchors];
  const wasMissing = new Map<string, boolean>();
  let last: AnchorStatus | undefined;
  let running: Promise<AnchorStatus> | undefined;
  let next: Promise<AnchorStatus> | undefined;

  const run = async (): Promise<AnchorStatus> => {
    const reasons = await Promise.all(anchors.map(async (anchor) => whyMissing(anchor, await deps.probe.check(anchor, { first: true }))));
    const missing: MissingAnchor[] = [];
    anchors.forEach((anchor, i) => {
      const reason = reasons[i];
      if (reason !== undefined) missing.push({ path: anchor, reason });
      const before = wasMissing.get(anchor);
      if (reason !== undefined && before !== true) deps.logger.warn({ anchor, reason }, "anchor missing: scans are held until it is back");
      if (reason === undefined && before === true) deps.logger.info({ anchor }, "anchor is back");
      wasMissing.set(anchor, reason !== undefined);
    });
    const status: AnchorStatus = { ok: missing.length === 0, missing, checkedAt: deps.clock.now() };
    if (status.ok && last !== undefined && !last.ok) deps.logger.info("every anchor is there again: scans go out");
    last = status;
    return status;
  };

  return {
    anchors,
    check() {
      next ??= (running ?? Promise.resolve())
        .catch(() => undefined)
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(() => {
          next = undefined;
          running = run().finally(() => {
            running = undefined;
          });
          return running;
        });
      return next;
    },
    current: () => last,
  };
}

function whyMissing(anchor: string, result: ProbeResult): string | undefined {
  const detail = result.error ? ` (${result.error})` : "";
  switch (result.state) {
    case "file":
      return /[\\/]$/.test(anchor) ? "is a file, but the anchor names a folder" : undefined;
    case "folder":
      return undefined;
    case "empty-folder":
      return "is an empty folder (a dropped mount looks like this)";
    case "missing":
      return `does not exist${detail}`;
    case "timeout":
      return `did not answer in time: the mount looks stalled${detail}`;
  }
}
