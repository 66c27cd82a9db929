import { pendingOf } from "../queue/views/scan-counts.js";
import { evaluateHealth } from "./health.js";
import { sendJson } from "./respond.js";
import type { RequestContext, Route } from "./types.js";

/** GET /health: no pass, no secrets. */
export function handleHealth({ res, deps }: RequestContext): void {
  const counts = deps.queue.counts();
  const queue = { pending: pendingOf(counts), failed: counts.failed, counts };
  if (deps.health) {
    const verdict = evaluateHealth({ ...deps.health(), queue });
    return sendJson(res, verdict.httpStatus, verdict.body);
  }
  sendJson(res, 200, { status: "ok", ...queue, ...deps.status?.() });
}

export const healthRoutes: Route[] = [{ methods: ["GET", "HEAD"], path: "/health", auth: "none", handler: handleHealth }];
