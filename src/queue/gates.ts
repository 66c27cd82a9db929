import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { ScanQueue } from "./scan-queue.js";

/** One bounded round of file-exists checks (see src/mount/). */
export interface FileChecker {
  /** Resolves with the subset of `files` (media-server paths) visible now; never rejects. */
  checkRound(files: string[]): Promise<Set<string>>;
}

/** The anchors (mount markers) that must all be present before anything is delivered. */
export interface AnchorCheck {
  /** Checks every anchor now (bounded in time); never rejects. */
  check(): Promise<{ ok: boolean }>;
}

export type GateQueue = Pick<ScanQueue, "dueFileChecks" | "recordFileChecks" | "nextFileCheckAt">;

export interface GateOptions {
  queue: GateQueue;
  clock: Clock;
  logger: Logger;
  fileChecker?: FileChecker;
  anchors?: AnchorCheck;
  /** Called when a check finished, so the scheduler looks again. */
  wake: () => void;
  /**
   * How long a passed anchor check lets due deliveries be claimed without a
   * look first (default 1 s). It never lets a scan out: each scan call waits
   * for confirmAnchors right before it is sent.
   */
  anchorFreshMs?: number;
  /** How often missing anchors are looked for again (default 10 s). */
  anchorRetryMs?: number;
  /** Scans per file-check round (default 500). */
  roundSize?: number;
}

export interface Gates {
  /** True when due deliveries may be claimed now; otherwise a check is under way or scheduled and `wake` follows. */
  anchorsOk(now: number): boolean;
  /**
   * The check right before a scan call: every anchor looked at by a check
   * begun after this call (callers waiting together share one), its answer
   * recorded like any other. Resolves true when all are there; the caller
   * sends in the same turn, with no await in between.
   */
  confirmAnchors(): Promise<boolean>;
  /** Starts a file-check round when one is due and none is running (only while the anchors are present). */
  runFileChecks(now: number): void;
  /** True when the last anchor check found one missing (false while unknown or present). */
  anchorsMissing(): boolean;
  /** When the gates next need the scheduler (Infinity when never: a running check wakes it when done). */
  nextWakeAt(): number;
  /** Resolves when no check is running. */
  idle(): Promise<void>;
}

/**
 * What holds deliveries back before a target is called: missing anchors pause
 * everything (nothing is sent or counted; a claim whose last-moment check
 * fails goes back unsent), and scans whose named files are not
 * visible yet wait for check rounds. Checks run one at a time, each bounded
 * by the checker; the queue keeps their state, so a restart resumes them.
 */
export function createGates(options: GateOptions): Gates {
  const { queue, clock, logger, fileChecker, anchors, wake } = options;
  const freshMs = options.anchorFreshMs ?? 1_000;
  const retryMs = options.anchorRetryMs ?? 10_000;
  const roundSize = options.roundSize ?? 500;
  let anchorCheck: Promise<void> | undefined;
  let anchorsPassedAt = -Infinity;
  let anchorsFailedAt = -Infinity;
  // The latest answer decides: a pass followed by a failure (the look right before a
  // scan call) must stop the claims, whatever the times say.
  let lastOk: boolean | undefined;
  let fileRound: Promise<void> | undefined;

  function anchorsOk(now: number): boolean {
    if (!anchors) return true;
    if (lastOk === true && now - anchorsPassedAt < freshMs) return true;
    if (!anchorCheck && now - anchorsFailedAt >= retryMs) {
      anchorCheck = anchors.check().then(({ ok }) => {
        anchorCheck = undefined;
        record(ok);
        wake();
      });
    }
    return false;
  }

  async function confirmAnchors(): Promise<boolean> {
    if (!anchors) return true;
    const { ok } = await anchors.check();
    record(ok);
    return ok;
  }

  function record(ok: boolean): void {
    lastOk = ok;
    if (ok) anchorsPassedAt = clock.now();
    else anchorsFailedAt = clock.now();
  }

  function runFileChecks(now: number): void {
    if (!fileChecker || fileRound || (queue.nextFileCheckAt() ?? Infinity) > now) return;
    // A dropped mount would make every file look missing and use up the rounds.
    if (!anchorsOk(now)) return;
    const due = queue.dueFileChecks(roundSize);
    if (due.length === 0) return;
    const files = due.flatMap((scan) => scan.files);
    fileRound = fileChecker
      .checkRound(files)
      .then((visible) => {
        const summary = queue.recordFileChecks(
          due,
          due.map((scan) => ({ scanId: scan.scanId, seen: scan.files.filter((f) => visible.has(f)) })),
        );
        for (const { folder, missing } of summary.exhausted)
          logger.warn({ folder, missing }, "files never appeared; scanning the folder anyway");
        for (const { folder, missing } of summary.failed) logger.warn({ folder, missing }, "files never appeared; scan marked failed");
        if (summary.ready.length > 0) logger.debug({ folders: summary.ready }, "files visible; scans released");
      })
      .catch((error: unknown) => logger.error({ err: error }, "could not record a file-check round; it runs again"))
      .finally(() => {
        fileRound = undefined;
        wake();
      });
  }

  function anchorsMissing(): boolean {
    return anchors !== undefined && lastOk === false;
  }

  function nextWakeAt(): number {
    // A running check wakes the scheduler when it ends; missing anchors are looked for
    // again after a while (file checks wait for them: a dropped mount shows no file).
    if (anchorCheck) return Infinity;
    if (anchorsMissing()) return anchorsFailedAt + retryMs;
    return fileChecker && !fileRound ? (queue.nextFileCheckAt() ?? Infinity) : Infinity;
  }

  async function idle(): Promise<void> {
    await Promise.allSettled([anchorCheck, fileRound]);
  }

  return { anchorsOk, confirmAnchors, anchorsMissing, runFileChecks, nextWakeAt, idle };
}
