import type { Clock } from "../lib/clock.js";
import type { Logger } from "../lib/logger.js";
import type { DeliveryJob } from "../queue/types.js";
import type { AnchorSend } from "./anchor-gate.js";
import { deliverFolder, type DeliveryTarget } from "./deliver.js";
import type { Completed } from "./outcome-book.js";
import type { QueuedRescan } from "./rescans.js";
import type { DeliveryAround } from "./scheduler-types.js";
import type { TargetHealth } from "./target-health.js";

export interface RunnerOptions {
  clock: Clock;
  logger: Logger;
  around: DeliveryAround | undefined;
  /** The anchor gate right before each scan call; undefined without anchors. */
  send: AnchorSend | undefined;
  healthOf: (dt: DeliveryTarget) => TargetHealth;
  /** A delivery's answer, for the outcome book (not called once detached). */
  answered: (completed: Completed) => void;
  /** A call ended (its slot is free again). */
  ended: () => void;
}

/** The calls in flight: claimed deliveries and queued re-scans, each holding one of its target's slots. */
export interface Runner {
  /** Sends one claimed delivery: the before-scan work, then deliver.ts through the anchor gate. */
  deliver(dt: DeliveryTarget, job: DeliveryJob): void;
  /** Sends one re-scan the after-scan work asked for; its outcome goes back to it, not to the queue. */
  rescan(dt: DeliveryTarget, queued: QueuedRescan): void;
  inFlight(target: string): number;
  /** Calls in flight. */
  running(): number;
  /** Waits up to `timeoutMs` for the calls in flight; answers after that are dropped (detach). */
  settle(timeoutMs: number): Promise<void>;
  /** Late answers are dropped from now on: the caller is about to close the database. */
  detach(): void;
}

export function createRunner(options: RunnerOptions): Runner {
  const { clock, logger, around, send } = options;
  const inFlight = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let detached = false;

  function hold(dt: DeliveryTarget, call: Promise<void>): void {
    const name = dt.target.name;
    inFlight.set(name, (inFlight.get(name) ?? 0) + 1);
    const work = call.finally(() => {
      inFlight.set(name, (inFlight.get(name) ?? 1) - 1);
      running.delete(work);
      options.ended();
    });
    running.add(work);
  }

  function deliver(dt: DeliveryTarget, job: DeliveryJob): void {
    const mark = options.healthOf(dt).callStarted(clock.now());
    const before = around ? around.before(dt, job).catch(() => undefined) : Promise.resolve();
    const refreshAfterConfirmation = around?.confirms(dt.target.name) ?? false;
    const call = before
      // The anchors are looked at again right before each scan call, after the claim: a pass
      // seen before it (anchorsOk) lets work be claimed, never sent.
      .then(() => deliverFolder(dt, job, send, { refreshAfterConfirmation }))
      .then((outcome) => {
        if (!detached) options.answered({ dt, job, outcome, mark });
      })
      .catch((error: unknown) => logger.error({ err: error, folder: job.folder }, "delivery bookkeeping failed"));
    hold(dt, call);
  }

  function rescan(dt: DeliveryTarget, { request, settle }: QueuedRescan): void {
    const job = { folder: request.folder, files: [] };
    hold(dt, deliverFolder(dt, job, send, { library: request.library }).then(settle));
  }

  async function settleRunning(timeoutMs: number): Promise<void> {
    if (running.size === 0) return;
    let handle: unknown;
    const timeout = new Promise<void>((resolve) => {
      handle = clock.setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.allSettled([...running]), timeout]);
    clock.clearTimeout(handle);
    if (running.size > 0) logger.warn({ inFlight: running.size }, "stopped with deliveries in flight; they resume on the next start");
  }

  return {
    deliver,
    rescan,
    inFlight: (target) => inFlight.get(target) ?? 0,
    running: () => running.size,
    settle: settleRunning,
    detach: () => {
      detached = true;
    },
  };
}
