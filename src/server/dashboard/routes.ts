import type { ServerResponse } from "node:http";
import { BODY_LIMIT_BYTES, parseBody, readBody } from "../body.js";
import { HttpError } from "../http-error.js";
import { sendJson } from "../respond.js";
import type { RequestContext, Route } from "../types.js";
import { crossSiteRefusal, FORM_TOKEN_FIELD } from "../same-origin.js";
import { renderResultPage } from "../views/result-page.js";
import type { DashboardDeps } from "./deps.js";
import type { PageInput } from "./page.js";
import { historyCursorText, parseDashboardQuery, pendingCursorText } from "./query.js";
import { withIsoTwins } from "../../lib/iso-twins.js";

// Our own script and the event stream are the only things besides the page itself.
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'";
const ACTIONS = ["scan-now", "retry", "cancel", "clear-history"] as const;
const DAY_MS = 86_400_000;
/** A century: more than any history holds, and far from where `days * DAY_MS` stops being exact. */
const MAX_HISTORY_DAYS = 36_500;

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    "content-type": type,
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "content-security-policy": CSP,
  });
  res.end(body);
}

function need(ctx: RequestContext): DashboardDeps {
  if (!ctx.deps.dashboard) throw new HttpError(404, "the dashboard is not available in this process");
  return ctx.deps.dashboard;
}

/** Relative prefix of the dashboard's routes from the page's own address (`/<pass>` or `/<pass>/`). */
function prefixOf(ctx: RequestContext, pass: string): string {
  return ctx.url.pathname.endsWith("/") ? "./" : `./${encodeURIComponent(pass)}/`;
}

function pageInput(ctx: RequestContext, deps: DashboardDeps, prefix: string): PageInput {
  const path = ctx.url.searchParams.get("trace");
  return {
    deps,
    query: parseDashboardQuery(ctx.url.searchParams),
    params: ctx.url.searchParams,
    view: { now: ctx.deps.clock.now(), prefix, formToken: ctx.formToken.value },
    allowManual: ctx.deps.allowManual,
    trace: path ? deps.trace(path.slice(0, 4096)) : undefined,
    user: ctx.user,
  };
}

// The page's modules (its views, style and script) load at the first page asked for, not at
// start: a serve nobody looks at does not keep them (issue 26).
const pageModule = () => import("./page.js");

/** GET /<pass>: the dashboard page (the manual form is part of it). */
export async function handleDashboardPage(ctx: RequestContext, pass: string): Promise<void> {
  const deps = need(ctx);
  if (ctx.req.method === "HEAD") return send(ctx.res, 200, "text/html; charset=utf-8", "");
  const { renderDashboard } = await pageModule();
  send(ctx.res, 200, "text/html; charset=utf-8", renderDashboard(pageInput(ctx, deps, prefixOf(ctx, pass))));
}

/** The dashboard's own routes besides its page (GET /<pass>, in ../routes.ts). */
export const dashboardRoutes: Route[] = [
  { methods: ["GET", "HEAD"], path: "/:pass/dashboard.js", auth: "login", part: "data", handler: sendScript },
  { methods: ["GET", "HEAD"], path: "/:pass/fragment", auth: "login", part: "data", handler: sendFragment },
  { methods: ["GET", "HEAD"], path: "/:pass/events", auth: "login", part: "data", handler: openEvents },
  { methods: ["GET", "HEAD"], path: "/:pass/api/history", auth: "login", part: "api", handler: (ctx) => sendHistory(ctx, need(ctx)) },
  ...ACTIONS.map(
    (action): Route => ({
      methods: ["POST"],
      path: `/:pass/actions/${action}`,
      auth: "login",
      part: "action",
      handler: (ctx) => runAction(ctx, need(ctx), action),
    }),
  ),
];

async function sendScript(ctx: RequestContext): Promise<void> {
  need(ctx);
  const { CLIENT_SCRIPT } = await import("./client-script.js");
  send(ctx.res, 200, "text/javascript; charset=utf-8", CLIENT_SCRIPT);
}

async function sendFragment(ctx: RequestContext): Promise<void> {
  const deps = need(ctx);
  const { renderLive } = await pageModule();
  send(ctx.res, 200, "text/html; charset=utf-8", renderLive(pageInput(ctx, deps, "./")));
}

function openEvents(ctx: RequestContext): void {
  need(ctx);
  ctx.live?.open(ctx.res, () => (ctx.req.socket as { server?: { listening: boolean } }).server?.listening ?? false);
}

function sendHistory(ctx: RequestContext, deps: DashboardDeps): void {
  const query = parseDashboardQuery(ctx.url.searchParams);
  const page = deps.browser.history(query.filter, query.limit, query.after);
  sendJson(ctx.res, 200, { history: withIsoTwins(page.scans), next: page.next && historyCursorText(page.next), limit: query.limit });
}

/** The JSON API's extra page of pending scans (GET /<pass>/api/queue?paged=1). */
export function pendingPageJson(deps: DashboardDeps, params: URLSearchParams) {
  const query = parseDashboardQuery(params);
  const page = deps.browser.pending(query.limit, query.pendingAfter);
  return {
    pendingPage: withIsoTwins(page.scans),
    pendingNext: page.next && pendingCursorText(page.next),
    counts: deps.browser.counts(),
  };
}

async function runAction(ctx: RequestContext, deps: DashboardDeps, action: string): Promise<void> {
  const { req, res } = ctx;
  const body = parseBody(await readBody(req, ctx.deps.bodyLimitBytes ?? BODY_LIMIT_BYTES), req.headers["content-type"]);
  const fields = (body.value && typeof body.value === "object" ? body.value : {}) as Record<string, unknown>;
  const html = body.format === "form" && (req.headers.accept ?? "").includes("text/html");
  const refusal = crossSiteRefusal(req, body.format === "form" && ctx.formToken.matches(fields[FORM_TOKEN_FIELD]));
  const who = { remote: ctx.remote, forwardedFor: header(req.headers["x-forwarded-for"]), user: ctx.user };
  if (refusal !== undefined) {
    ctx.deps.logger.warn({ action, reason: refusal, ...who }, "dashboard action refused");
    throw new HttpError(403, refusal);
  }
  let answer: { status: number; body: Record<string, unknown> };
  if (action === "clear-history") {
    const days = positiveInteger(fields.days, MAX_HISTORY_DAYS);
    if (days === undefined) throw new HttpError(400, `days must be a whole number of days from 1 to ${MAX_HISTORY_DAYS}`);
    const cleared = deps.actions.clearHistory(ctx.deps.clock.now() - days * DAY_MS);
    answer = { status: 200, body: { action, cleared, message: `cleared ${cleared} finished scans older than ${days} days` } };
  } else {
    const id = positiveInteger(fields.id, Number.MAX_SAFE_INTEGER);
    if (id === undefined) throw new HttpError(400, "id must be the number of a scan");
    const { actions } = deps;
    const result = action === "scan-now" ? actions.scanNow(id) : action === "retry" ? actions.retry(id) : actions.cancel(id);
    if (!result.ok) {
      ctx.deps.logger.info({ action, id, refused: result.reason, ...who }, "dashboard action refused");
      if (html) return send(res, result.status, "text/html; charset=utf-8", renderResultPage(false, "Not done", [result.reason]));
      throw new HttpError(result.status, result.reason);
    }
    const scan = deps.browser.scan(id);
    const state = scan?.state ?? "gone";
    answer = { status: 200, body: { action, id, state, scan: scan && withIsoTwins(scan), message: `scan ${id} is now ${state}` } };
  }
  ctx.deps.logger.info({ action, id: answer.body.id, state: answer.body.state, cleared: answer.body.cleared, ...who }, "dashboard action");
  if (html) {
    // Back to the dashboard, which shows what happened: no page of its own to reload by accident.
    res.writeHead(303, { location: `../?done=${encodeURIComponent(String(answer.body.message))}`, "cache-control": "no-store" });
    return void res.end();
  }
  sendJson(res, answer.status, answer.body);
}

/**
 * A JSON number or a string of decimal digits (a form field) from 1 to `max`,
 * else undefined. `Number()` would read "", null, false and [] as 0 and true
 * as 1: a clear-history with `"days": ""` would clear everything.
 */
function positiveInteger(value: unknown, max: number): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && /^[0-9]{1,16}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 1 && n <= max ? n : undefined;
}

function header(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.slice(0, 200);
}
