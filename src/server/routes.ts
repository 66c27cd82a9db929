import { withIsoTwins } from "../lib/iso-twins.js";
import { parseScanRequest } from "../triggers/index.js";
import { answerOutcome } from "./answer.js";
import { BODY_LIMIT_BYTES, parseBody, readBody, readBodyInTurn, type ParsedBody } from "./body.js";
import { HttpError } from "./http-error.js";
import { ingestTrigger, refuseUnmatched } from "./ingest-trigger.js";
import { LIMITS } from "./limits.js";
import { sendHtml, sendJson, wantsHtml } from "./respond.js";
import { crossSiteRefusal, FORM_TOKEN_FIELD } from "./same-origin.js";
import { renderManualPage } from "./views/manual-page.js";
import { handleDashboardPage, pendingPageJson } from "./dashboard/routes.js";
import type { RequestContext, Route } from "./types.js";
import { renderResultPage } from "./views/result-page.js";

/** The webhook, manual-scan and queue API routes: SERVER_PASS in the path is their key. */
export const serviceRoutes: Route[] = [
  { methods: ["GET", "HEAD"], path: "/:pass", auth: "login", part: "page", handler: handleManualPage },
  { methods: ["POST", "PUT"], path: "/:pass", auth: "pass", handler: handleScanPost },
  { methods: ["GET", "HEAD"], path: "/:pass/api/queue", auth: "login", part: "api", handler: handleQueueApi },
  { methods: ["GET", "POST"], path: "/api/:pass", auth: "pass", handler: handleLegacyApi },
];

/** POST /<pass>: a webhook or a manual request, answered only after the queue committed it. */
export async function handleScanPost({ req, res, deps, remote, formToken, turns }: RequestContext): Promise<void> {
  let body: ParsedBody | undefined;
  try {
    body = parseBody(await readBodyInTurn(req, deps.bodyLimitBytes ?? BODY_LIMIT_BYTES, turns), req.headers["content-type"]);
    const refusal = crossSiteRefusal(req, body.format === "form" && formToken.matches(fieldOf(body.value, FORM_TOKEN_FIELD)));
    if (refusal !== undefined) throw new HttpError(403, refusal);
    const outcome = refuseUnmatched(await ingestTrigger(parseScanRequest(body.value), deps));
    answerOutcome(req, res, deps, outcome, { queuedStatus: 202, format: body.format });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    deps.metrics?.request("unknown", "refused");
    // While the disk is full the service logged it once; a line per refused webhook would only add to the log.
    const level = error.status === 507 ? "debug" : "warn";
    deps.logger[level]({ status: error.status, reason: error.message, remote }, "scan request refused");
    if (body && wantsHtml(req, body.format)) {
      for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
      return sendHtml(res, error.status, renderResultPage(false, "Not queued", [error.message]));
    }
    throw error;
  }
}

function fieldOf(value: unknown, key: string): unknown {
  return value && typeof value === "object" && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

/** GET /<pass>: the manual scan page, when manual scans are allowed. */
export function handleManualPage(ctx: RequestContext): Promise<void> | void {
  const { res, deps, formToken } = ctx;
  if (deps.dashboard) return handleDashboardPage(ctx, deps.pass);
  if (!deps.allowManual) {
    return sendHtml(
      res,
      403,
      renderResultPage(false, "Manual scans are disabled", [
        "Set SERVER_ALLOW_MANUAL_SCAN to true in config.json and restart scanarr to use this page.",
      ]),
    );
  }
  sendHtml(res, 200, renderManualPage(deps.queue.recent(LIMITS.manualPageRows), deps.clock.now(), formToken.value));
}

/** GET /<pass>/api/queue[?limit=N]: pending, failed and unconfirmed scans with their deliveries, at most N of each, and the counts. */
export function handleQueueApi({ res, url, deps }: RequestContext): void {
  const limit = parseLimit(url.searchParams.get("limit"));
  sendJson(
    res,
    200,
    withIsoTwins({
      pending: deps.queue.listPending(limit),
      failed: deps.queue.listFailed(limit),
      ...(deps.queue.listUnconfirmed ? { unconfirmed: deps.queue.listUnconfirmed(limit) } : {}),
      counts: deps.queue.counts(),
      limit,
      // The dashboard's paged view: ISO 8601 times, every state counted, a cursor for the next page (?pafter=).
      ...(deps.dashboard ? pendingPageJson(deps.dashboard, url.searchParams) : {}),
    }),
  );
}

function parseLimit(raw: string | null): number {
  if (raw === null) return LIMITS.queueListDefault;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMITS.queueListMax) {
    throw new HttpError(400, `limit must be a whole number from 1 to ${LIMITS.queueListMax}`);
  }
  return limit;
}

/** plex_autoscan's `/api/<pass>?cmd=queue_count`, kept for existing scripts. */
export async function handleLegacyApi({ req, res, url, deps }: RequestContext): Promise<void> {
  let cmd = url.searchParams.get("cmd");
  if (cmd === null && req.method === "POST") {
    const body = parseBody(await readBody(req, deps.bodyLimitBytes ?? BODY_LIMIT_BYTES), req.headers["content-type"]).value;
    const value = fieldOf(body, "cmd");
    cmd = typeof value === "string" ? value : null;
  }
  if (cmd === null) throw new HttpError(400, "No cmd parameter was supplied");
  if (cmd.toLowerCase() === "queue_count") return sendJson(res, 200, { queue_count: deps.queue.countPending() });
  throw new HttpError(400, `Unknown cmd: ${cmd.slice(0, 64)}`);
}
