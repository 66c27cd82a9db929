import type { IncomingMessage, ServerResponse } from "node:http";
import { parseScanRequest } from "../triggers/index.js";
import type { ScanServerDeps } from "./app.js";
import { BODY_LIMIT_BYTES, parseBody, readBody, type ParsedBody } from "./body.js";
import { HttpError } from "./http-error.js";
import { ingest } from "./ingest.js";
import { sendHtml, sendJson, wantsHtml } from "./respond.js";
import { renderManualPage } from "./views/manual-page.js";
import { renderResultPage } from "./views/result-page.js";

/** POST /<pass>: a webhook or a manual request, answered only after the queue committed it. */
export async function handleScanPost(req: IncomingMessage, res: ServerResponse, deps: ScanServerDeps): Promise<void> {
  let body: ParsedBody | undefined;
  try {
    body = parseBody(await readBody(req, deps.bodyLimitBytes ?? BODY_LIMIT_BYTES), req.headers["content-type"]);
    const outcome = await ingest(parseScanRequest(body.value), { ...deps, sink: deps.sink ?? deps.queue });
    if (outcome.status === 202) {
      deps.logger.info(
        {
          source: outcome.source,
          event: outcome.event,
          queued: outcome.queued,
          covered: outcome.covered,
          ignored: outcome.ignored.length || undefined,
        },
        "scan request accepted",
      );
      const answer = {
        status: "queued",
        source: outcome.source,
        event: outcome.event,
        queued: outcome.queued,
        covered: outcome.covered,
        ignored: outcome.ignored,
        unmatched: outcome.unmatched,
      };
      if (wantsHtml(req, body.format)) {
        const lines = [
          ...outcome.queued.map((f) => `queued: ${f}`),
          ...outcome.covered.map((f) => `already queued: ${f}`),
          ...outcome.unmatched.map((f) => `in no library, not queued: ${f}`),
        ];
        return sendHtml(res, 202, renderResultPage(true, "Scan queued", lines));
      }
      return sendJson(res, 202, answer);
    }
    deps.logger.info({ source: outcome.source, event: outcome.event, result: outcome.result }, outcome.message);
    if (wantsHtml(req, body.format))
      return sendHtml(res, 200, renderResultPage(true, outcome.result === "test" ? "Test received" : "Ignored", [outcome.message]));
    return sendJson(res, 200, { status: outcome.result, source: outcome.source, event: outcome.event, message: outcome.message });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    deps.logger.warn({ status: error.status, reason: error.message, remote: req.socket.remoteAddress }, "scan request refused");
    if (body && wantsHtml(req, body.format)) return sendHtml(res, error.status, renderResultPage(false, "Not queued", [error.message]));
    throw error;
  }
}

/** GET /<pass>: the manual scan page, when manual scans are allowed. */
export function handleManualPage(res: ServerResponse, deps: ScanServerDeps): void {
  if (!deps.allowManual) {
    return sendHtml(
      res,
      403,
      renderResultPage(false, "Manual scans are disabled", [
        "Set SERVER_ALLOW_MANUAL_SCAN to true in config.json and restart scanarr to use this page.",
      ]),
    );
  }
  sendHtml(res, 200, renderManualPage(deps.queue.recent(25), deps.clock.now()));
}

/** GET /<pass>/api/queue: pending and failed scans with their deliveries. */
export function handleQueueApi(res: ServerResponse, deps: ScanServerDeps): void {
  sendJson(res, 200, {
    pending: deps.queue.listPending(),
    failed: deps.queue.listFailed(),
    counts: { pending: deps.queue.countPending(), failed: deps.queue.countFailed() },
  });
}

/** plex_autoscan's `/api/<pass>?cmd=queue_count`, kept for existing scripts. */
export async function handleLegacyApi(req: IncomingMessage, res: ServerResponse, url: URL, deps: ScanServerDeps): Promise<void> {
  let cmd = url.searchParams.get("cmd");
  if (cmd === null && req.method === "POST") {
    const body = parseBody(await readBody(req, deps.bodyLimitBytes ?? BODY_LIMIT_BYTES), req.headers["content-type"]).value;
    const value = body && typeof body === "object" ? (body as Record<string, unknown>).cmd : undefined;
    cmd = typeof value === "string" ? value : null;
  }
  if (cmd === null) throw new HttpError(400, "No cmd parameter was supplied");
  if (cmd.toLowerCase() === "queue_count") return sendJson(res, 200, { queue_count: deps.queue.countPending() });
  throw new HttpError(400, `Unknown cmd: ${cmd.slice(0, 64)}`);
}
