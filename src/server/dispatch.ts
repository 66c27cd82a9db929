import { HttpError, unwritableAnswer } from "./http-error.js";
import { admitToDashboard } from "./login/routes.js";
import { allowedMethods, createRouter, routeFor, type Gate } from "./router.js";
import type { RequestContext, Route } from "./types.js";

export interface DispatchOptions {
  /** Compares a presented pass with SERVER_PASS in constant time. */
  passMatches(presented: string): boolean;
  /** Counts a wrong pass for the rate-limited warning. */
  noteWrongPass(remote: string | undefined): void;
}

/**
 * Serves a route list: finds the route, checks its auth kind, then calls its
 * handler. In order: the pass (before anything else, so a wrong pass learns
 * nothing about routes), whether the route exists here, the route's guard,
 * HTTP Basic, the method (405 with `Allow`), the dashboard login. A refusal
 * from any of them or from the handler is worded by the gate's `refusal`.
 */
export function createDispatch(routes: readonly Route[], options: DispatchOptions): (ctx: RequestContext) => Promise<void> {
  const router = createRouter(routes);
  return async (ctx) => {
    const segments = decodeSegments(ctx.url.pathname);
    if (segments.length === 0) throw new HttpError(404, "nothing here; the service lives at /<SERVER_PASS>");
    const found = router.find(segments);
    ctx.params = found.params;
    const { gate } = found;
    if (gate === undefined) throw new HttpError(404, "no such route");
    try {
      await passGate(ctx, gate, options);
      if (found.routes === undefined) throw new HttpError(404, "no such route");
      const route = routeFor(found.routes, ctx.req.method ?? "GET");
      if (route === undefined) {
        const allowed = allowedMethods(found.routes);
        ctx.res.setHeader("allow", allowed.join(", "));
        throw new HttpError(405, `use ${allowed.join(" or ")}`);
      }
      if (route.auth === "login" && !(await admitToDashboard(ctx, route.part))) return;
      return await route.handler(ctx);
    } catch (error) {
      throw reworded(error, gate);
    }
  };
}

/** The error as the gate's area answers it: a database that cannot write is a refusal too (app.ts says 507 elsewhere). */
function reworded(error: unknown, gate: Gate): unknown {
  if (gate.refusal === undefined) return error;
  const refusal = error instanceof HttpError ? error : unwritableAnswer(error);
  return refusal === undefined ? error : gate.refusal(refusal);
}

async function passGate(ctx: RequestContext, gate: Gate, options: DispatchOptions): Promise<void> {
  if (gate.key === "pass" && !options.passMatches(ctx.params.pass ?? "")) {
    options.noteWrongPass(ctx.remote);
    throw new HttpError(401, "wrong or missing pass");
  }
  if (gate.served && !gate.served(ctx.deps)) throw new HttpError(404, "no such route");
  gate.guard?.(ctx.req);
  if (gate.key === "basic") await requireBasic(ctx);
}

/** HTTP Basic with the argon2-hashed login (the /triggers routes); answers 401 with a challenge, or 429 (the routes' refusal makes it 503). */
async function requireBasic({ req, res, deps, remote }: RequestContext): Promise<void> {
  const basicAuth = deps.compat?.basicAuth;
  if (basicAuth === undefined) throw new HttpError(404, "no such route");
  const verdict = await basicAuth.check(req.headers.authorization, remote ?? "unknown");
  if (verdict.ok) return;
  if (verdict.challenge) res.setHeader("www-authenticate", 'Basic realm="scanarr", charset="UTF-8"');
  if (verdict.status === 429) deps.logger.warn({ remote }, "too many failed logins on /triggers; refusing for a while");
  const wait: Record<string, string> = verdict.retryAfterSeconds === undefined ? {} : { "retry-after": String(verdict.retryAfterSeconds) };
  throw new HttpError(verdict.status, verdict.reason, {}, wait);
}

function decodeSegments(pathname: string): string[] {
  try {
    return pathname
      .split("/")
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    throw new HttpError(400, "the URL path is not valid percent-encoding");
  }
}
