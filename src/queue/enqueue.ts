import type { EnqueueOutcome, ScanRequest } from "../domain.js";
import { coalesceRequest, type CoalesceContext } from "./coalesce.js";
import type { PriorityOf } from "./priority.js";
import { defaultMaxWaitMs } from "./scan-queue-options.js";
import { attachFiles, holdsForFiles } from "./scan-files.js";
import { recordOrigins } from "./scan-requests.js";

/**
 * Writes `requests` (their folders already normalized, in `folders`) inside
 * the caller's transaction: each merges into the scan that covers it or
 * opens one, with its files and the paths it named. Answers the outcome and
 * the earliest due time among the scans it touched (Infinity for none).
 */
export function enqueueRequests(
  ctx: CoalesceContext,
  priorityOf: PriorityOf,
  requests: readonly ScanRequest[],
  folders: readonly string[],
  now: number,
): { outcome: EnqueueOutcome; earliest: number } {
  const queued = new Set<string>();
  const covered = new Set<string>();
  let earliest = Infinity;
  requests.forEach((request, i) => {
    const folder = folders[i] as string;
    const delayMs = request.delayMs ?? ctx.delayMs;
    const files = request.files ?? [];
    const intent = { deletion: request.deletion ?? false, refresh: request.refresh ?? false };
    const held = holdsForFiles(ctx.gateFiles, files, intent);
    const result = coalesceRequest(
      ctx,
      request.scanFolder !== false,
      {
        folder,
        priority: request.priority ?? priorityOf(folder),
        requests: 1,
        source: request.source,
        event: request.event,
        firstRequestedAt: now,
        lastRequestedAt: now,
        dueAt: request.dueNow ? now : now + delayMs,
      },
      now,
      // A source's longer DELAY brings its own cap, or SERVER_SCAN_DELAY's would cut it short.
      delayMs === ctx.delayMs ? ctx.maxWaitMs : Math.max(ctx.maxWaitMs, defaultMaxWaitMs(delayMs)),
      request.dueNow === true,
      held,
    );
    attachFiles(ctx.fst, result.scanId, files, intent, ctx.gateFiles, now, held && result.kind === "created");
    const origins = request.origins ?? (request.files?.length ? request.files : [folder]).map((p) => ({ path: p, mapped: p }));
    recordOrigins(ctx.rst, result.scanId, origins, request.source, request.event, now);
    (result.kind === "covered" ? covered : queued).add(folder);
    earliest = Math.min(earliest, result.dueAt);
  });
  return { outcome: { queued: [...queued], covered: [...covered].filter((f) => !queued.has(f)) }, earliest };
}
