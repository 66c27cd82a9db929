import { isWithin } from "../paths/index.js";
import { ancestorsOf, descendantRangeOf } from "./folder-key.js";
import { openScanOf, type OpenScanRow } from "./open-scan.js";
import { factsOf, type ScanRow } from "./rows.js";
import type { ScanFacts } from "./types.js";
import type { QueueStatements } from "./statements.js";
import { moveFiles, type FileStatements } from "./scan-files.js";
import { moveOrigins, type RequestStatements } from "./scan-requests.js";

/** What coalescing needs from the queue; all of it runs inside the caller's transaction. */
export interface CoalesceContext {
  st: QueueStatements;
  fst: FileStatements;
  rst: RequestStatements;
  targets: readonly string[];
  delayMs: number;
  maxWaitMs: number;
  /** Whether named imports hold their scan until they are visible (file-exists checks on). */
  gateFiles: boolean;
}

export type CoalesceResult = { kind: "created" | "merged" | "covered"; scanId: number; folder: string; dueAt: number };

/**
 * Files `incoming` into the open scans, keeping the invariant that no open
 * folder lies inside another: an open ancestor (or the folder itself) takes
 * it in; otherwise it becomes a new open scan that absorbs open descendants
 * (and their files). Costs one index seek when the folder is open already;
 * otherwise one seek per ancestor and one index range scan.
 * A new scan whose request names imports to wait for (`heldForFiles`) is
 * written waiting, its deliveries held, rather than written pending and
 * moved at once (attachFiles), which wrote five index entries and removed
 * them again.
 */
export function coalesceRequest(
  ctx: CoalesceContext,
  scanFolder: boolean,
  incoming: ScanFacts,
  now: number,
  maxWaitMs = ctx.maxWaitMs,
  dueNow = false,
  heldForFiles = false,
): CoalesceResult {
  const holder = findOpenHolder(ctx, incoming.folder);
  if (holder) {
    const merged = keepDueWithinStep(mergeFacts(ctx, [factsOf(holder), incoming], maxWaitMs, dueNow), holder.due_at, incoming.dueAt - now);
    if (merged.firstRequestedAt === holder.first_requested_at) saveIntoOpen(ctx, holder, merged, scanFolder, now);
    else {
      saveMerged(ctx, holder.id, merged, now);
      if (scanFolder) ctx.st.needFolderScan.run(holder.id);
    }
    return {
      kind: holder.folder === incoming.folder ? "merged" : "covered",
      scanId: holder.id,
      folder: holder.folder,
      dueAt: merged.dueAt,
    };
  }
  const children = findOpenDescendants(ctx, incoming.folder);
  const merged = mergeFacts(ctx, [incoming, ...children.map(factsOf)], maxWaitMs, dueNow);
  const { lastInsertRowid } = ctx.st.insertScan.run(
    merged.folder,
    merged.priority,
    merged.requests,
    merged.source,
    merged.event,
    merged.firstRequestedAt,
    merged.lastRequestedAt,
    merged.dueAt,
    scanFolder ? 1 : 0,
    heldForFiles ? "waiting" : "none",
  );
  const scanId = Number(lastInsertRowid);
  const state = heldForFiles ? "waiting" : "pending";
  for (const target of ctx.targets) ctx.st.insertDelivery.run(scanId, target, state, merged.priority, merged.dueAt, now);
  for (const child of children) absorbScan(ctx, scanId, child, now);
  return { kind: "created", scanId, folder: merged.folder, dueAt: merged.dueAt };
}

/**
 * Puts a closed scan whose deliveries are all waiting again (a retry, or a
 * crash mid-delivery) back among the open ones, so requests that arrive
 * during an outage merge into it instead of queueing a second scan.
 */
export function reopenScan(ctx: CoalesceContext, scan: ScanRow, now: number): void {
  const holder = findOpenHolder(ctx, scan.folder);
  if (holder) {
    saveMerged(ctx, holder.id, mergeFacts(ctx, [factsOf(holder), factsOf(scan)]), now);
    absorbScan(ctx, holder.id, scan, now);
    return;
  }
  const children = findOpenDescendants(ctx, scan.folder);
  saveMerged(ctx, scan.id, mergeFacts(ctx, [factsOf(scan), ...children.map(factsOf)]), now);
  for (const child of children) absorbScan(ctx, scan.id, child, now);
}

function findOpenHolder(ctx: CoalesceContext, folder: string): OpenScanRow | undefined {
  // Most requests name a folder that is open already; then, no open folder lying inside
  // another, no ancestor is open: one index seek, and the ancestors are not even spelled out.
  const own = ctx.st.openFolder.get(folder) as unknown[] | undefined;
  if (own) return openScanOf(own);
  const candidates = ancestorsOf(folder);
  if (candidates.length === 0) return undefined;
  // A seek per ancestor: an IN list over them built a temporary index on every call (0.87-0.92 x the CPU of a new folder's webhook without it).
  const rows = candidates.flatMap((candidate) => {
    const row = ctx.st.openFolder.get(candidate) as unknown[] | undefined;
    return row ? [openScanOf(row)] : [];
  });
  // Only ancestors are asked for here. The invariant allows one row; should it ever be broken, the topmost folder wins.
  return rows.filter((row) => isWithin(row.folder, folder)).sort((a, b) => a.folder.length - b.folder.length)[0];
}

function findOpenDescendants(ctx: CoalesceContext, folder: string): OpenScanRow[] {
  const { from, to } = descendantRangeOf(folder);
  const rows = (ctx.st.openRange.all(from, to, folder) as unknown[][]).map(openScanOf);
  return rows.filter((row) => isWithin(folder, row.folder));
}

/** `child` disappears into `intoId`, its files, its requests' paths (and its need of a folder scan) with it. */
function absorbScan(ctx: CoalesceContext, intoId: number, child: OpenScanRow, now: number): void {
  moveFiles(ctx.fst, intoId, child.id, ctx.gateFiles, now);
  moveOrigins(ctx.rst, intoId, child.id);
  if (child.scan_folder !== 0) ctx.st.needFolderScan.run(intoId);
  ctx.st.deleteDeliveries.run(child.id);
  ctx.st.deleteScan.run(child.id);
}

/**
 * `saveMerged` for an open scan whose first request stays its first: one narrower UPDATE of the
 * scan, and its deliveries only when its due time or priority moved.
 */
function saveIntoOpen(ctx: CoalesceContext, holder: OpenScanRow, facts: ScanFacts, scanFolder: boolean, now: number): void {
  const id = holder.id;
  if (facts.dueAt === holder.due_at && facts.priority === holder.priority) {
    ctx.st.countIntoOpen.run(facts.requests, facts.lastRequestedAt, facts.source, facts.event, scanFolder ? 1 : 0, id);
    return;
  }
  ctx.st.mergeIntoOpen.run(
    facts.dueAt,
    facts.priority,
    facts.requests,
    facts.lastRequestedAt,
    facts.source,
    facts.event,
    scanFolder ? 1 : 0,
    id,
  );
  ctx.st.pushDeliveries.run(facts.dueAt, facts.priority, now, id);
}

function saveMerged(ctx: CoalesceContext, id: number, facts: ScanFacts, now: number): void {
  ctx.st.updateMerged.run(
    facts.dueAt,
    facts.priority,
    facts.requests,
    facts.firstRequestedAt,
    facts.lastRequestedAt,
    facts.source,
    facts.event,
    id,
  );
  ctx.st.pushDeliveries.run(facts.dueAt, facts.priority, now, id);
}

/**
 * A merge leaves the scan's due time where it is when the request would move it by less than a
 * step of a hundredth of its delay (at most a second; a delay under 100 ms has no step): the
 * requests of a burst then leave it, every index holding it and the deliveries unwritten, and
 * only the scan's row is written. The scan may go out up to one step before the full delay
 * after its last request.
 */
function keepDueWithinStep(merged: ScanFacts, dueAt: number, delayMs: number): ScanFacts {
  const step = Math.min(1_000, Math.floor(delayMs / 100));
  return merged.dueAt > dueAt && merged.dueAt - dueAt < step ? { ...merged, dueAt } : merged;
}

/**
 * The first fact names the folder. Trailing debounce: the latest due time
 * wins (a request's own due time counts from its source's DELAY), but never
 * later than maxWait after the earliest request; a batch's end (`dueNow`)
 * makes the merged scan due at the newest request's time.
 */
function mergeFacts(ctx: CoalesceContext, facts: [ScanFacts, ...ScanFacts[]], maxWaitMs = ctx.maxWaitMs, dueNow = false): ScanFacts {
  const [head] = facts;
  // Loops, not Math.min(...): a parent may absorb tens of thousands of children.
  let latest = head;
  let first = head.firstRequestedAt;
  let due = head.dueAt;
  let priority = head.priority;
  let requests = 0;
  for (const f of facts) {
    if (f.lastRequestedAt > latest.lastRequestedAt) latest = f;
    first = Math.min(first, f.firstRequestedAt);
    due = Math.max(due, f.dueAt);
    priority = Math.min(priority, f.priority);
    requests += f.requests;
  }
  return {
    folder: head.folder,
    priority,
    requests,
    source: latest.source,
    event: latest.event,
    firstRequestedAt: first,
    lastRequestedAt: latest.lastRequestedAt,
    dueAt: dueNow ? latest.lastRequestedAt : Math.min(due, first + maxWaitMs),
  };
}
