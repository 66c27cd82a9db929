import type { ServerResponse } from "node:http";
import { parseBody, readBody } from "../body.js";
import { HttpError } from "../http-error.js";
import { sendHtml } from "../respond.js";
import type { DashboardPart, RequestContext, Route, ScanServerDeps } from "../types.js";
import { crossSiteRefusal, FORM_TOKEN_FIELD } from "../same-origin.js";
import { renderResultPage } from "../views/result-page.js";
import { cameOverHttps, clearedSessionCookie, sessionCookie } from "./cookie.js";
import type { DashboardLogin } from "./dashboard-login.js";
import { renderLoginPage } from "./login-page.js";

// A login form is a few hundred bytes; a long password only costs hashing time.
const LOGIN_BODY_LIMIT = 16_384;
const FIELD_LIMIT = 1_024;

const loginConfigured = (deps: ScanServerDeps) => deps.login !== undefined;

/** The login form and the logout; without a login configured these addresses do not exist, as before there was one. */
export const loginRoutes: Route[] = [
  { methods: ["GET", "HEAD", "POST"], path: "/:pass/login", auth: "pass", served: loginConfigured, handler: handleLogin },
  { methods: ["POST"], path: "/:pass/logout", auth: "pass", served: loginConfigured, handler: handleLogout },
];

/**
 * Lets a dashboard request through when no login is configured or it proves
 * one (sets `ctx.user`); otherwise answers it and returns false, or throws the
 * HttpError to answer with.
 */
export async function admitToDashboard(ctx: RequestContext, part: DashboardPart): Promise<boolean> {
  const login = ctx.deps.login;
  if (login === undefined) return true;
  const user = login.sessionUser(ctx.req);
  if (user !== undefined) {
    ctx.user = user;
    return true;
  }
  if (part === "api" || part === "action") {
    const basic = await login.basicUser(ctx.req, ctx.remote ?? "unknown");
    if (basic?.ok) {
      ctx.user = basic.user;
      return true;
    }
    if (basic?.retryAfterSeconds !== undefined) ctx.res.setHeader("retry-after", String(basic.retryAfterSeconds));
    if (basic) throw new HttpError(basic.status, basic.reason);
  }
  if (part === "page") return redirect(ctx.res, loginFromPage(ctx.url));
  if (part === "action" && (ctx.req.headers.accept ?? "").includes("text/html")) return redirect(ctx.res, "../login");
  throw new HttpError(401, "log in first: open the dashboard in a browser, or send HTTP Basic with the dashboard login");
}

/** GET or POST /<pass>/login: the form, and the login it submits. */
export async function handleLogin(ctx: RequestContext): Promise<void> {
  const { req, res } = ctx;
  const login = need(ctx);
  const form = { action: "login", formToken: ctx.formToken.value };
  if (req.method !== "POST") {
    if (login.sessionUser(req) !== undefined) return void redirect(res, "./");
    return sendHtml(res, 200, renderLoginPage(form));
  }
  const fields = await readFields(ctx);
  if (!refuseCrossSite(ctx, fields, "login")) return;
  const { username, password } = fields.values;
  if (typeof username !== "string" || typeof password !== "string" || username.length > FIELD_LIMIT || password.length > FIELD_LIMIT) {
    throw new HttpError(400, `send username and password as form fields (each at most ${FIELD_LIMIT} characters)`);
  }
  const verdict = await login.logIn(username, password, ctx.remote ?? "unknown");
  if (verdict.ok) {
    res.setHeader("set-cookie", sessionCookie(verdict.sessionId, { secure: cameOverHttps(req), maxAgeMs: login.maxAgeMs }));
    return void redirect(res, "./");
  }
  if (verdict.status === 429) res.setHeader("retry-after", String(verdict.retryAfterSeconds));
  sendHtml(res, verdict.status, renderLoginPage({ ...form, problem: verdict.reason, username }));
}

/** POST /<pass>/logout: ends the session and forgets the cookie. */
export async function handleLogout(ctx: RequestContext): Promise<void> {
  const { req, res } = ctx;
  const login = need(ctx);
  if (!refuseCrossSite(ctx, await readFields(ctx), "logout")) return;
  const user = login.sessionUser(req);
  login.logOut(req);
  if (user !== undefined) ctx.deps.logger.info({ user, remote: ctx.remote }, "dashboard logout");
  res.setHeader("set-cookie", clearedSessionCookie(cameOverHttps(req)));
  redirect(res, "login");
}

function need(ctx: RequestContext): DashboardLogin {
  if (ctx.deps.login === undefined) throw new HttpError(404, "no such route");
  return ctx.deps.login;
}

/** The posted form's fields, and whether it carried our form token. An empty body has none (a logout by script). */
async function readFields(ctx: RequestContext): Promise<{ values: Record<string, unknown>; hasFormToken: boolean }> {
  const raw = await readBody(ctx.req, LOGIN_BODY_LIMIT);
  if (raw.length === 0) return { values: {}, hasFormToken: false };
  const body = parseBody(raw, ctx.req.headers["content-type"]);
  const values = (body.value && typeof body.value === "object" ? body.value : {}) as Record<string, unknown>;
  return { values, hasFormToken: body.format === "form" && ctx.formToken.matches(values[FORM_TOKEN_FIELD]) };
}

/** True when the request may go on; otherwise answers 403 (a page from another site posted it). */
function refuseCrossSite(ctx: RequestContext, fields: { hasFormToken: boolean }, what: string): boolean {
  const refusal = crossSiteRefusal(ctx.req, fields.hasFormToken);
  if (refusal === undefined) return true;
  ctx.deps.logger.warn({ reason: refusal, remote: ctx.remote }, `dashboard ${what} refused`);
  sendHtml(ctx.res, 403, renderResultPage(false, `Not ${what === "login" ? "logged in" : "logged out"}`, [refusal]));
  return false;
}

/** The login form's address relative to the page's: `/<pass>/` → `login`, `/<pass>` → `<pass>/login`. */
function loginFromPage(url: URL): string {
  if (url.pathname.endsWith("/")) return "login";
  return `${url.pathname.split("/").filter(Boolean).at(-1) ?? ""}/login`;
}

function redirect(res: ServerResponse, location: string): false {
  res.writeHead(303, { location, "cache-control": "no-store", "content-length": 0 });
  res.end();
  return false;
}
