import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import { anchorGateOf, type AnchorCheck, type AnchorGate, type AnchorSend } from "./anchor-gate.js";
import type { ScanQueue } from "../queue/scan-queue.js";

export type { AnchorCheck } from "./anchor-gate.js";

/** One bounded round of file-exists checks (see src/mount/). */
export interface FileChecker {
  /** Resolves with the subset of `files` (media-server paths) visible now; never rejects. */
  checkRound(files: string[]): Promise<Set<string>>;
}

export type GateQueue = Pick<ScanQueue, "dueFileChecks" | "recordFileChecks" | "nextFileCheckAt">;

export interface GateOptions {
  queue: GateQueue;
  clock: Clock;
  logger: Logger;
  fileChecker?: FileChecker;
  /** The anchors, or the service's one gate over them (shared with the after-scan work). */
  anchors?: AnchorCheck | AnchorGate;
  /** Called when a check finished, so the scheduler looks again. */
  wake: () => void;
  /**
   * How long a passed anchor check lets due deliveries be claimed without a
   * look first (default 1 s). It never lets a scan out: each scan call waits
   * for the anchor gate right before it is sent.
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
   * The gate right before a scan call (AnchorGate.send): `call` goes out in
   * the same turn as a check begun after this call finds every anchor there;
   * otherwise AnchorMissingError and nothing is sent. Undefined without anchors.
   */
  sendWhenAnchored: AnchorSend | undefined;
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
  const { queue, clock, logger, fileChecker, wake } = options;
  const gate = options.anchors && anchorGateOf(options.anchors, clock);
  const freshMs = options.anchorFreshMs ?? 1_000;
  const retryMs = options.anchorRetryMs ?? 10_000;
  const roundSize = options.roundSize ?? 500;
  let anchorCheck: Promise<void> | undefined;
  let fileRound: Promise<void> | undefined;

  // The gate's latest answer decides (whoever asked: a delivery, a re-scan, a
  // look before claiming): a pass followed by a failure stops the claims.
  function anchorsOk(now: number): boolean {
    if (!gate) return true;
    const last = gate.last();
    if (last?.ok === true && now - last.at < freshMs) return true;
    if (!anchorCheck && (last?.ok !== false || now - last.at >= retryMs)) {
      anchorCheck = gate.confirm().then(() => {
        anchorCheck = undefined;
        wake();
      });
    }
    return false;
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
    return gate?.last()?.ok === false;
  }

  function nextWakeAt(): number {
    // A running check wakes the scheduler when it ends; missing anchors are looked for
    // again after a while (file checks wait for them: a dropped mount shows no file).
    if (anchorCheck) return Infinity;
    const last = gate?.last();
    if (last?.ok === false) return last.at + retryMs;
    return fileChecker && !fileRound ? (queue.nextFileCheckAt() ?? Infinity) : Infinity;
  }

  async function idle(): Promise<void> {
    await Promise.allSettled([anchorCheck, fileRound]);
  }

  return { anchorsOk, sendWhenAnchored: gate?.send, anchorsMissing, runFileChecks, nextWakeAt, idle };
}
