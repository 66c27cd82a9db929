import type { Clock } from "../../lib/clock.js";
import { messageOf } from "../../lib/errors.js";
import type { Logger } from "../../lib/logger.js";
import { RESERVE_BYTES, type SpaceReserve } from "./space-reserve.js";
import { describeStorageTrouble, storageTroubleOf } from "./storage-errors.js";

/** What the checkpoint thread reports after each checkpoint it tried. */
export type CheckpointReport = { ok: true; walBytes: number } | { ok: false; code?: string; message: string; walBytes: number };

/**
 * Whether the database can write, as the service's writers and its checkpoint
 * thread find out. While it cannot, the queue refuses new requests without
 * trying (a 507, nothing half-written) and the scheduler holds deliveries;
 * `probe` is tried now and then, and once a probe write and then a checkpoint
 * succeed, the state clears and the listeners are told.
 */
export interface StorageWatch {
  /** Why the database cannot write, in words (for /health and refusals); undefined while it can. */
  problem(): string | undefined;
  /** Notes a failed write; true when it was a storage failure (disk full, I/O error, read-only), now the state. */
  report(error: unknown): boolean;
  /** Notes what the checkpoint thread found. */
  checkpointed(report: CheckpointReport): void;
  /** Called once each time the database writes again after a problem. */
  onWritable(listener: () => void): void;
  stop(): void;
}

export interface StorageWatchOptions {
  database: string;
  clock: Clock;
  logger: Logger;
  /** A small write that throws while the database cannot write (and may do pending start-up work). */
  probe(): void;
  /** Asks the checkpoint thread for a checkpoint now that empties the WAL (writes refused, or a probe succeeded). */
  checkpointNow?(): void;
  /** How often the probe is tried while the database cannot write; 1 s by default. */
  probeMs?: number;
  /** Bytes kept aside: released when the disk fills, made whole again before the state clears. */
  reserve?: SpaceReserve;
  /** Bytes free on the database's disk; no probe is tried below `minFreeBytes` (twice the reserve by default). */
  freeBytes?: () => number;
  minFreeBytes?: number;
}

export function createStorageWatch(options: StorageWatchOptions): StorageWatch {
  const { database, clock, logger } = options;
  const probeMs = options.probeMs ?? 1_000;
  const minFreeBytes = options.minFreeBytes ?? 2 * RESERVE_BYTES;
  let writes: { reason: string; since: number } | undefined;
  let checkpoint: { reason: string; since: number } | undefined;
  let timer: unknown;
  let stopped = false;
  let lastWarning = "";
  const listeners: Array<() => void> = [];

  const problem = () => writes?.reason ?? (checkpoint ? `the WAL checkpoint failed: ${checkpoint.reason}` : undefined);

  // One error when the trouble starts; what else goes wrong meanwhile is a warning. The reserve goes at
  // once: its bytes are for the outcomes of deliveries already under way.
  function enter(reason: string, code: string | undefined): void {
    if (problem() === undefined) {
      const released = storageTroubleOf({ code }) === "full" ? (options.reserve?.release() ?? 0) : 0;
      const note = released > 0 ? ` (released the ${Math.round(released / 1024)} KiB kept aside for the deliveries under way)` : "";
      logger.error(
        { database, code, released },
        `${reason}; webhooks are refused with 507 and deliveries are held until it can write again${note}`,
      );
    } else logger.warn({ database, code }, `${reason} (still refusing webhooks and holding deliveries)`);
  }

  function leaveIfClear(since: number): void {
    if (problem() !== undefined) return;
    cancelProbe();
    logger.info({ database, afterMs: clock.now() - since }, "the database writes again: webhooks are accepted and deliveries resume");
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        logger.error({ err: error }, "a listener of the database's recovery failed");
      }
    }
  }

  function scheduleProbe(): void {
    if (timer !== undefined || stopped) return;
    timer = clock.setTimeout(runProbe, probeMs);
  }

  function cancelProbe(): void {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  }

  function runProbe(): void {
    timer = undefined;
    if (stopped || problem() === undefined) return;
    // Space has come back only when there is room for the reserve and more: a write squeezed into the
    // last bytes (or into the reserve's own) proves nothing. The WAL may be what holds that room: with
    // every write refused, none starts it over, so it is emptied instead.
    if (options.freeBytes !== undefined && options.freeBytes() < minFreeBytes) {
      options.checkpointNow?.();
      return scheduleProbe();
    }
    try {
      options.probe();
    } catch (error) {
      const message = messageOf(error);
      if (storageTroubleOf(error) === undefined && message !== lastWarning)
        logger.warn({ err: error, database }, "the database probe failed");
      lastWarning = message;
      scheduleProbe();
      return;
    }
    if (options.reserve !== undefined && !options.reserve.ensure()) return scheduleProbe();
    const since = Math.min(writes?.since ?? Infinity, checkpoint?.since ?? Infinity);
    writes = undefined;
    // A checkpoint now, which empties the WAL: a failed one clears as soon as it can run instead of after its
    // backoff, and what the WAL grew to while the disk was full goes back to the disk.
    options.checkpointNow?.();
    leaveIfClear(since);
    if (problem() !== undefined) scheduleProbe();
  }

  return {
    problem,
    report(error) {
      if (storageTroubleOf(error) === undefined) return false;
      const reason = describeStorageTrouble(error, database);
      if (writes?.reason !== reason) {
        enter(reason, (error as { code?: string }).code);
        writes = { reason, since: writes?.since ?? clock.now() };
        // What the WAL holds goes back to the disk now: a full WAL no write restarts would keep it full.
        options.checkpointNow?.();
      }
      scheduleProbe();
      return true;
    },
    checkpointed(report) {
      if (report.ok) {
        lastWarning = "";
        if (checkpoint === undefined) return;
        const since = checkpoint.since;
        checkpoint = undefined;
        leaveIfClear(since);
        return;
      }
      const error = { code: report.code };
      if (storageTroubleOf(error) === undefined) {
        if (report.message !== lastWarning) logger.warn({ database, error: report.message }, "WAL checkpoint failed; it is tried again");
        lastWarning = report.message;
        return;
      }
      const reason = describeStorageTrouble(error, database);
      if (checkpoint?.reason !== reason) {
        enter(`the WAL checkpoint failed: ${reason}`, report.code);
        checkpoint = { reason, since: checkpoint?.since ?? clock.now() };
      }
      scheduleProbe();
    },
    onWritable(listener) {
      listeners.push(listener);
    },
    stop() {
      stopped = true;
      cancelProbe();
    },
  };
}
