/**
 * The life of a scan, as data: every state the queue stores and every move
 * between them, with the statement that makes it. docs/queue.md draws the
 * same tables; test/queue/lifecycle.test.ts fails when an SQL statement under
 * src/ writes or names a state these tables do not know, or when a statement
 * listed here moves between other states than its event says.
 */

/** `scan_queue.state`: open scans take new requests; closed ones are being delivered. */
export const SCAN_STATES = ["open", "closed", "done", "unconfirmed", "failed", "cancelled"] as const;
export type StoredScanState = (typeof SCAN_STATES)[number];

/** `scan_delivery.state`: one target's side of a scan. */
export const DELIVERY_STATES = [
  "waiting",
  "pending",
  "delivering",
  "confirming",
  "done",
  "unconfirmed",
  "skipped",
  "failed",
  "cancelled",
] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** `scan_queue.files_state`: whether a scan waits for the imports it named to be visible. */
export const FILES_STATES = ["none", "waiting", "ready"] as const;
export type FilesState = (typeof FILES_STATES)[number];

/** One move of a machine: from any of `from` (empty: the row is created) to `to`. */
export interface Transition<S extends string> {
  readonly from: readonly S[];
  readonly to: S;
  /** When it happens, in words (docs/queue.md repeats it). */
  readonly when: string;
  /** The prepared statements that make it (`file.statement`). */
  readonly by: readonly string[];
}

const LIVE = ["open", "closed"] as const;
const HELD = ["pending", "waiting"] as const;

/** The scan machine (`scan_queue.state`). Deleting a finished scan (pruning, Clear history) is not a state. */
export const SCAN = {
  create: { from: [], to: "open", when: "first request for a folder", by: ["statements.insertScan"] },
  merge: {
    from: LIVE,
    to: "open",
    when: "a request merges, is covered or absorbs; a closed scan whose deliveries all wait again reopens",
    by: ["statements.updateMerged"],
  },
  close: { from: ["open"], to: "closed", when: "its first delivery is claimed", by: ["statements.closeScan"] },
  complete: { from: LIVE, to: "done", when: "the last delivery ended and none failed", by: ["statements.setScanState"] },
  completeUnconfirmed: {
    from: LIVE,
    to: "unconfirmed",
    when: "the last delivery ended and one was not confirmed",
    by: ["statements.setScanState"],
  },
  fail: {
    from: LIVE,
    to: "failed",
    when: "the last delivery ended and one failed, or every target skipped it",
    by: ["statements.setScanState"],
  },
  cancel: { from: LIVE, to: "cancelled", when: "dashboard Cancel, while no delivery is in flight", by: ["actions.cancelScan"] },
  retry: { from: ["failed", "unconfirmed"], to: "closed", when: "dashboard Retry", by: ["actions.reopen"] },
} as const satisfies Record<string, Transition<StoredScanState>>;

/** The delivery machine (`scan_delivery.state`). */
export const DELIVERY = {
  create: {
    from: [],
    to: "pending",
    when: "the scan is created, or a target is added to the config (waiting when the scan waits for files)",
    by: ["statements.insertDelivery", "statements.addMissingDeliveries"],
  },
  createWaiting: {
    from: [],
    to: "waiting",
    when: "the scan is created by a request naming imports not yet visible, or a target is added to the config while the scan waits for its files",
    by: ["statements.insertDelivery", "statements.addMissingDeliveries"],
  },
  hold: { from: ["pending"], to: "waiting", when: "the scan names imports not yet visible", by: ["scan-files.holdDeliveries"] },
  release: {
    from: ["waiting"],
    to: "pending",
    when: "the files were seen, or the checks ran out and the folder is scanned anyway",
    by: ["scan-files.releaseDeliveries"],
  },
  claim: { from: ["pending"], to: "delivering", when: "the scheduler claims it (owner and lease)", by: ["statements.markDelivering"] },
  requeue: {
    from: ["delivering"],
    to: "pending",
    when: "the attempt is retried later; its lease ran out; a restart found it in flight; an anchor went missing right before the call (given back unsent, no attempt counted)",
    by: ["statements.markRetry", "statements.releaseLease", "statements.resetDelivering", "statements.releaseClaim"],
  },
  deliver: { from: ["delivering"], to: "done", when: "the target accepted it", by: ["statements.markDone"] },
  confirm: {
    from: ["delivering"],
    to: "confirming",
    when: "the target accepted it and its after-scan work confirms it",
    by: ["confirm-store.markConfirming"],
  },
  confirmed: { from: ["confirming"], to: "done", when: "the confirmation settled", by: ["confirm-store.finish"] },
  unconfirmed: { from: ["confirming"], to: "unconfirmed", when: "the confirmation gave up", by: ["confirm-store.finish"] },
  fail: { from: ["delivering"], to: "failed", when: "the target refused it", by: ["statements.markFailed"] },
  skip: {
    from: ["delivering"],
    to: "skipped",
    when: "no library of the target holds the folder, or the target has nothing to do for it (no series or movie holds it)",
    by: ["statements.markSkipped"],
  },
  expire: {
    from: HELD,
    to: "failed",
    when: "24 h after the first request; or the files never appeared and the policy fails the scan",
    by: ["statements.expireDeliveries", "scan-files.failWaiting"],
  },
  drop: {
    from: ["waiting", "pending", "delivering", "confirming"],
    to: "skipped",
    when: "its target was removed from the config (start-up)",
    by: ["statements.dropRemovedTargets"],
  },
  scanNow: { from: HELD, to: "pending", when: "dashboard Scan now", by: ["actions.deliveriesNow"] },
  cancel: { from: HELD, to: "cancelled", when: "dashboard Cancel", by: ["actions.cancelDeliveries"] },
  retry: { from: ["failed", "unconfirmed"], to: "pending", when: "dashboard Retry", by: ["actions.retryDeliveries"] },
} as const satisfies Record<string, Transition<DeliveryState>>;

/** The file-check machine (`scan_queue.files_state`), beside the scan's own state while it is open or closed. */
export const FILES = {
  create: { from: [], to: "none", when: "the scan is created", by: ["statements.insertScan"] },
  createWaiting: {
    from: [],
    to: "waiting",
    when: "the scan is created by a request naming imports not yet visible",
    by: ["statements.insertScan"],
  },
  wait: {
    from: FILES_STATES,
    to: "waiting",
    when: "a request names imports not yet visible (checks start again)",
    by: ["scan-files.waitForFiles"],
  },
  ready: {
    from: ["waiting"],
    to: "ready",
    when: "the files were seen, the checks ran out, or dashboard Scan now",
    by: ["scan-files.setFilesReady", "actions.dueNow"],
  },
} as const satisfies Record<string, Transition<FilesState>>;

export const MACHINES = { scan: SCAN, delivery: DELIVERY, files: FILES } as const;
export type Machine = keyof typeof MACHINES;

/** Whether `transition` may start from `state` (a state read before the write). */
export function allows<S extends string>(transition: Transition<S>, state: string | undefined): state is S {
  return state !== undefined && (transition.from as readonly string[]).includes(state);
}

/** Throws when `state` is not a from-state of `transition`: a write the tables do not allow is a bug, never data. */
export function assertTransition<S extends string>(transition: Transition<S>, state: string | undefined): asserts state is S {
  if (!allows(transition, state)) {
    throw new Error(`no move from ${state ?? "nothing"} to ${transition.to} (${transition.when}); see src/queue/lifecycle.ts`);
  }
}

/** The scan's state once its last delivery ended, from how many of its deliveries ended each way. */
export function finishedScanTransition(counts: { failed: number; skipped: number; unconfirmed: number; total: number }) {
  // Every target skipping it means no library anywhere holds the folder: that is a failure.
  if (counts.failed > 0 || counts.skipped === counts.total) return SCAN.fail;
  return counts.unconfirmed > 0 ? SCAN.completeUnconfirmed : SCAN.complete;
}

/** Delivery states that keep a scan open or closed (not finished). */
export const UNFINISHED_DELIVERY_STATES = ["pending", "waiting", "delivering", "confirming"] as const satisfies readonly DeliveryState[];
