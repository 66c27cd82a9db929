import type { IncomingMessage, ServerResponse } from "node:http";
import { logOutcome } from "../ingest/report.js";
import type { Logger } from "../lib/logger.js";
import type { ScanMetrics } from "../metrics/metrics.js";
import type { TriggerOutcome } from "./ingest-trigger.js";
import { sendHtml, sendJson, wantsHtml } from "./respond.js";
import { renderResultPage } from "./views/result-page.js";

/** How a route answers: what a queued request gets, the body's format, and fields every answer and log line carry. */
export interface AnswerStyle {
  /** 202 on scanarr's own routes; 200 on autoscan's and autopulse's, whose callers check for it. */
  queuedStatus: 200 | 202;
  format?: "json" | "form";
  /** Named in the JSON answer and the log line (a /triggers route's `trigger`, A-Train's `drive`, autopulse's `hash`). */
  fields?: Record<string, unknown>;
}

/**
 * The one 2xx answer of a request the way in took: counted in the metrics,
 * logged in the words a watcher's request is logged in (ingest/report.ts),
 * and answered as JSON or, to the manual form, as a page. A request no
 * library holds reaches here only from the compatible routes (autoscan drops
 * such a folder with a 200; a 422 would stop an autoscan forwarding to
 * scanarr); scanarr's own routes refuse it first (refuseUnmatched).
 */
export function answerOutcome(
  req: IncomingMessage,
  res: ServerResponse,
  deps: { logger: Logger; metrics?: ScanMetrics },
  outcome: TriggerOutcome,
  style: AnswerStyle,
): void {
  const fields = style.fields ?? {};
  const html = wantsHtml(req, style.format);
  deps.metrics?.request(outcome.source, outcome.result);
  logOutcome(deps.logger, outcome, fields, "info");
  const { source, event } = outcome;
  if (outcome.result === "queued") {
    const { queued, covered, ignored, unmatched } = outcome;
    if (!html)
      return sendJson(res, style.queuedStatus, { status: "queued", ...fields, source, event, queued, covered, ignored, unmatched });
    const lines = [
      ...queued.map((f) => `queued: ${f}`),
      ...covered.map((f) => `already queued: ${f}`),
      ...unmatched.map((f) => `in no library, not queued: ${f}`),
    ];
    return sendHtml(res, style.queuedStatus, renderResultPage(true, "Scan queued", lines));
  }
  const { result, message } = outcome;
  if (result === "unmatched") {
    if (html) return sendHtml(res, 200, renderResultPage(false, "Not queued", [message]));
    const { paths, libraries } = outcome;
    const none: string[] = [];
    return sendJson(res, 200, {
      status: result,
      ...fields,
      source,
      event,
      message,
      queued: none,
      covered: none,
      ignored: none,
      unmatched: paths,
      libraries,
    });
  }
  if (html) return sendHtml(res, 200, renderResultPage(true, result === "test" ? "Test received" : "Ignored", [message]));
  sendJson(res, 200, { status: result, ...fields, source, event, message });
}

/** HEAD and availability checks: 200 with no body. */
export function answerEmpty(res: ServerResponse): void {
  res.writeHead(200, { "content-length": 0, "cache-control": "no-store" });
  res.end();
}
