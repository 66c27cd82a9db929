import type { Hooks } from "../../hooks/hooks.js";
import type { Clock } from "../../lib/clock.js";
import type { Logger } from "../../lib/logger.js";
import type { DeliveryTarget } from "../deliver.js";
import type { AnchorGate } from "../anchor-gate.js";
import type { ScanQueue } from "../../queue/scan-queue.js";
import type { AfterScanCapability, LibraryScanState } from "../../domain.js";
import { createConfirmer, type ConfirmStep, type Confirmer, type ConfirmWait } from "./confirm.js";
import type { RescanQueue } from "../rescans.js";
import { nextTurn } from "../../lib/next-turn.js";
import {
  describeHeldSettle,
  describeProgress,
  nextLookAt,
  readProgress,
  unsettled,
  type PlexConfirming,
  type SectionProgress,
} from "./progress.js";
import { heldForAnchors, settleBatch } from "./settle.js";

export type ConfirmQueue = Pick<
  ScanQueue,
  "listConfirming" | "listConfirmingDue" | "nextConfirmDue" | "countConfirming" | "saveConfirmProgress" | "recordConfirmed"
>;

/**
 * A poll looks at the deliveries due (`nextLookAt`), the longest due first,
 * at most ROUND_LIMIT of them, SLICE at a time with a turn of the event loop
 * between slices: a server that lags behind thousands of scans costs each
 * round what is due, and never holds the loop (the webhooks) for long.
 */
const ROUND_LIMIT = 2_000;
const SLICE = 100;

export interface ConfirmationOptions {
  queue: ConfirmQueue;
  /** The target's after-scan capability (Target.afterScan): its settings, its lookup and its calls. */
  afterScan: AfterScanCapability;
  /** The target whose deliveries are confirmed, in its path form. */
  target: DeliveryTarget;
  /** Where a re-scan is queued: the scheduler sends it through deliver.ts and the anchor gate. */
  rescans: Pick<RescanQueue, "request">;
  hooks?: Hooks;
  /** The service's anchor gate, shared with the scheduler: analyze, item refresh and emptyTrash go through it. */
  gate?: AnchorGate;
  clock: Clock;
  logger: Logger;
}

export interface ConfirmationHandle {
  /** A delivery was recorded confirming: poll one interval from now, unless a poll is already due sooner. */
  wake(): void;
  /** Stops polling and waits for a poll under way; what it had not recorded is polled again on the next start. */
  stop(): Promise<void>;
}

/**
 * Confirms every delivery to one Plex target recorded 'confirming', with one
 * timer and one poll of that server per PLEX_CONFIRM_POLL_INTERVAL for all
 * of them (one sections call answers every waiting scan). The queue keeps
 * each delivery's progress, so a restart resumes where the last poll left off.
 */
export function startConfirmations(options: ConfirmationOptions): ConfirmationHandle {
  const { queue, clock, logger } = options;
  const { pollMs, server } = options.afterScan.settings.confirm;
  const confirmer = createConfirmer({ target: options.afterScan, settings: options.afterScan.settings.confirm });
  let timer: unknown;
  let timerAt = 0;
  let running: Promise<void> | undefined;
  let stopping = false;

  // A timer already set for sooner stays; one set for later is moved up.
  function arm(delayMs: number): void {
    if (stopping || (timer !== undefined && timerAt <= clock.now() + delayMs)) return;
    if (timer !== undefined) clock.clearTimeout(timer);
    timerAt = clock.now() + delayMs;
    timer = clock.setTimeout(() => {
      timer = undefined;
      run();
    }, delayMs);
  }

  // The next poll: when the next delivery falls due, one interval from now at the soonest.
  function armNext(): void {
    const next = queue.nextConfirmDue(options.target.target.name);
    if (next !== undefined) arm(Math.max(pollMs, next - clock.now()));
  }

  function run(): void {
    if (running || stopping) return;
    running = pollOnce(options, confirmer)
      .catch((error: unknown) =>
        logger.warn(
          { err: error, target: options.target.target.name },
          `could not ask ${server} about the scans being confirmed; asking again`,
        ),
      )
      .finally(() => {
        running = undefined;
        try {
          armNext();
        } catch (error) {
          logger.error({ err: error }, "could not read the scans being confirmed");
          arm(pollMs);
        }
      });
  }

  // Deliveries a stop left confirming are polled again one interval after the start, not in its first
  // seconds, which the start-up and the clients reconnecting already fill (a backlog of thousands
  // polled at once there tripled the webhooks' p99).
  if (queue.countConfirming(options.target.target.name) > 0) arm(pollMs);
  return {
    wake: () => arm(pollMs),
    async stop() {
      stopping = true;
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}

/**
 * Ends the confirmations of a target nothing confirms any more (its
 * after-scan work was turned off, or it is no longer a Plex target with
 * it): they are done as delivered, so their scans do not wait for ever.
 */
export function endUnwatchedConfirmations(queue: ConfirmQueue, target: string, logger: Logger): number {
  const rows = queue.listConfirming(target);
  if (rows.length === 0) return 0;
  const detail = "delivered; not confirmed: the after-scan work of this target is off";
  const ended = queue.recordConfirmed(
    rows.map((r) => ({ deliveryId: r.deliveryId, scanId: r.scanId, state: "done" as const, detail, error: null, progress: r.progress })),
  );
  logger.info({ target, deliveries: ended }, "ended confirmations left from a run with the after-scan work on");
  return ended;
}

/** One poll: the deliveries due, a slice at a time, sharing one look at the libraries. */
async function pollOnce(options: ConfirmationOptions, confirmer: Confirmer): Promise<void> {
  const { queue, target: dt, clock } = options;
  const startedAt = clock.now();
  let sections: LibraryScanState[] | undefined;
  for (let seen = 0; seen < ROUND_LIMIT; ) {
    // Each slice moves its deliveries' next look past `startedAt`, so the next slice reads others.
    const rows = queue.listConfirmingDue(dt.target.name, startedAt, Math.min(SLICE, ROUND_LIMIT - seen)).map(readProgress);
    if (rows.length === 0) return;
    seen += rows.length;
    sections = await pollSlice(rows, sections, options, confirmer);
    await nextTurn();
  }
}

/** Every unsettled section of `rows`, then the batch that settled; answers the libraries as the poll saw them. */
async function pollSlice(
  rows: PlexConfirming[],
  seen: LibraryScanState[] | undefined,
  options: ConfirmationOptions,
  confirmer: Confirmer,
): Promise<LibraryScanState[] | undefined> {
  const { queue, target: dt, clock, logger } = options;
  const settings = options.afterScan.settings.confirm;
  const waits: ConfirmWait[] = [];
  for (const row of rows) {
    for (const s of row.progress.sections) if (!s.result) waits.push(waitOf(row, s, dt));
  }
  const round = waits.length > 0 ? await confirmer.poll(waits, clock.now(), seen) : { outcomes: [], sections: seen ?? [] };
  const listed = waits.length > 0 ? round.sections : seen;
  const steps = new Map(round.outcomes.map((o) => [o.id, o.step]));
  for (const row of rows) {
    for (const s of row.progress.sections) {
      const step = steps.get(`${row.deliveryId}:${s.id}`);
      if (step) await apply(step, row, s, options);
    }
  }
  const done = rows.filter((r) => r.progress.sections.every((s) => s.result));
  const settleDeps = { ...options, target: dt.target.name, toTargetPath: (p: string) => dt.toTargetPath(p) };
  // Held ones are polled again (their results dropped) and settled once every anchor is back.
  const held = done.length > 0 ? await heldForAnchors(done, settleDeps) : new Set<PlexConfirming>();
  if (held.size > 0) logger.debug({ target: dt.target.name, deliveries: held.size }, "analyze and item refresh wait for the anchors");
  const server = options.afterScan.settings.confirm.server;
  const now = clock.now();
  queue.saveConfirmProgress(
    rows.map((r) =>
      held.has(r)
        ? {
            deliveryId: r.deliveryId,
            progress: unsettled(r.progress),
            detail: describeHeldSettle(r.progress, server),
            dueAt: now + settings.pollMs,
          }
        : {
            deliveryId: r.deliveryId,
            progress: r.progress,
            detail: describeProgress(r.progress, server),
            dueAt: nextLookAt(r.progress, now, settings),
          },
    ),
  );
  const settled = done.filter((r) => !held.has(r));
  if (settled.length === 0) return listed;
  const finishes = await settleBatch(settled, round.sections, settleDeps);
  queue.recordConfirmed(finishes);
  logger.debug({ settled: finishes.length, waiting: rows.length - settled.length }, "confirmation poll");
  return listed;
}

function waitOf(row: PlexConfirming, s: SectionProgress, dt: DeliveryTarget): ConfirmWait {
  return {
    id: `${row.deliveryId}:${s.id}`,
    sectionId: s.id,
    scannedAt: s.scannedAt,
    rescanned: s.rescanned,
    ...(s.sawRefreshing !== undefined ? { sawRefreshing: s.sawRefreshing } : {}),
    files: row.files.map((f) => dt.toTargetPath(f)),
    deletedFiles: row.deletedFiles.map((f) => dt.toTargetPath(f)),
  };
}

/** Moves one section's progress by the poll's step; a re-scan is queued for the scheduler, which sends it through the anchor gate. */
async function apply(step: ConfirmStep, row: PlexConfirming, s: SectionProgress, options: ConfirmationOptions): Promise<void> {
  const { target: dt, clock, logger } = options;
  switch (step.kind) {
    case "wait":
      if (step.refreshing) s.sawRefreshing = true;
      // Only a server that has finished and still lacks the files is asked less often; a refreshing one at every poll.
      if (step.why === "files-missing") s.looks = (s.looks ?? 0) + 1;
      s.notConfirmed = step.notConfirmed;
      return;
    case "rescan": {
      const folder = dt.toTargetPath(row.folder);
      const outcome = await options.rescans.request({ target: dt.target.name, folder: row.folder, library: { id: s.id, title: s.title } });
      if (outcome.kind === "done") {
        logger.info(
          { folder, section: s.title, missing: step.notConfirmed },
          `files not in ${options.afterScan.settings.confirm.server} yet; scanned the folder again`,
        );
        delete s.rescanHeld;
        Object.assign(s, { scannedAt: clock.now(), rescanned: true, sawRefreshing: false, looks: 0, notConfirmed: step.notConfirmed });
      } else if (outcome.kind === "held") {
        // Like a delivery: nothing sent, nothing counted; the next poll decides "rescan" again.
        if (s.rescanHeld === undefined) logger.warn({ folder, section: s.title }, "re-scan held: an anchor is missing");
        s.rescanHeld = clock.now();
        s.notConfirmed = step.notConfirmed;
      } else {
        // The next poll decides "rescan" again and tries once more.
        logger.warn({ folder, section: s.title, err: outcome.error }, "could not scan the folder again; trying at the next poll");
      }
      return;
    }
    case "confirmed":
    case "finished":
      s.result = { kind: step.kind, items: step.items, notConfirmed: [] };
      return;
    case "unconfirmed":
      s.result = { kind: "unconfirmed", items: step.items, notConfirmed: step.notConfirmed, reason: step.reason };
      return;
  }
}
