import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "../../lib/logger.js";
import type { ScanMetrics } from "../../metrics/metrics.js";
import type { TriggerOutcome } from "../ingest-trigger.js";
import { sendHtml, sendJson, wantsHtml } from "../respond.js";
import { renderResultPage } from "../views/result-page.js";

/**
 * Answers a compatible route: 200 when the request was queued (autoscan and
 * autopulse answer 200, and the tools calling them check for it), when it
 * carried nothing to scan, and when no library holds it (autoscan drops such a
 * folder with a 200; a 422 would stop an autoscan forwarding to scanarr).
 * Counted in the metrics like a webhook to `/<pass>`.
 */
export function answerOutcome(
  req: IncomingMessage,
  res: ServerResponse,
  deps: { logger: Logger; metrics?: ScanMetrics },
  trigger: string,
  outcome: TriggerOutcome,
  extra: Record<string, unknown> = {},
  format?: "json" | "form",
): void {
  const { logger } = deps;
  deps.metrics?.request(outcome.source, outcome.result);
  if (outcome.result === "queued") {
    const { source, event, queued, covered, ignored, unmatched } = outcome;
    logger.info({ trigger, source, event, queued, covered, ignored: ignored.length || undefined, ...extra }, "scan request accepted");
    if (wantsHtml(req, format)) {
      const lines = [
        ...queued.map((f) => `queued: ${f}`),
        ...covered.map((f) => `already queued: ${f}`),
        ...unmatched.map((f) => `in no library: ${f}`),
      ];
      return sendHtml(res, 200, renderResultPage(true, "Scan queued", lines));
    }
    return sendJson(res, 200, { status: "queued", trigger, source, event, queued, covered, ignored, unmatched, ...extra });
  }
  const { source, event, result, message } = outcome;
  if (result === "unmatched") {
    const { paths, libraries } = outcome;
    logger.warn({ trigger, source, event, result, unmatched: paths.length }, message);
    if (wantsHtml(req, format)) return sendHtml(res, 200, renderResultPage(false, "Not queued", [message]));
    return sendJson(res, 200, {
      status: result,
      trigger,
      source,
      event,
      message,
      queued: [],
      covered: [],
      ignored: [],
      unmatched: paths,
      libraries,
      ...extra,
    });
  }
  logger.info({ trigger, source, event, result }, message);
  if (wantsHtml(req, format)) return sendHtml(res, 200, renderResultPage(true, "Nothing to scan", [message]));
  sendJson(res, 200, { status: result, trigger, source, event, message });
}

/** HEAD and availability checks: 200 with no body. */
export function answerEmpty(res: ServerResponse): void {
  res.writeHead(200, { "content-length": 0, "cache-control": "no-store" });
  res.end();
}
