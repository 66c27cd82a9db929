import type { IncomingMessage } from "node:http";
import { HttpError } from "../http-error.js";
import { crossSiteRefusal } from "../same-origin.js";
import type { RequestContext, Route, ScanServerDeps } from "../types.js";
import type { CompatDeps } from "./deps.js";
import { handleATrain, handleManual, handleNamed } from "./handlers.js";
import { autoscanRefusal } from "./refusal.js";
import type { TurnShare } from "../turn-share.js";

const compatServed = (deps: ScanServerDeps) => deps.compat !== undefined;
const shared = { served: compatServed, guard: refuseCrossSite, refusal: autoscanRefusal };

/**
 * The autoscan- and autopulse-compatible routes, twice: with HTTP Basic on the
 * bare path (`/triggers/…`), and with the pass as the first segment
 * (`/<pass>/triggers/…`). Served only when the compat deps are built; their
 * refusals are worded for autoscan's client (refusal.ts).
 */
export const compatRoutes: Route[] = (
  [
    ["", "basic"],
    ["/:pass", "pass"],
  ] as const
).flatMap(([prefix, auth]): Route[] => [
  { methods: "*", path: `${prefix}/triggers/manual`, auth, ...shared, handler: manual },
  { methods: ["POST"], path: `${prefix}/triggers/a-train/:drive`, auth, ...shared, handler: aTrain },
  { methods: "*", path: `${prefix}/triggers/:name`, auth, ...shared, handler: named },
]);

function withCompat(ctx: RequestContext): ScanServerDeps & { compat: CompatDeps; turns?: TurnShare } {
  const compat = ctx.deps.compat;
  if (compat === undefined) throw new HttpError(404, "no such route");
  return { ...ctx.deps, compat, turns: ctx.turns };
}

function manual(ctx: RequestContext): Promise<void> {
  return handleManual(ctx.req, ctx.res, ctx.url, withCompat(ctx));
}

function aTrain(ctx: RequestContext): Promise<void> {
  return handleATrain(ctx.req, ctx.res, ctx.params.drive ?? "", withCompat(ctx));
}

function named(ctx: RequestContext): Promise<void> {
  const deps = withCompat(ctx);
  const name = ctx.params.name ?? "";
  const type = deps.compat.triggers.get(name);
  if (type === undefined) {
    throw new HttpError(
      404,
      `no trigger named ${JSON.stringify(name.slice(0, 64))}; configured: ${[...deps.compat.triggers.keys(), "manual", "a-train/<drive>"].join(", ")}`,
    );
  }
  return handleNamed(ctx.req, ctx.res, ctx.url, name, type, deps);
}

/**
 * Browsers attach remembered Basic credentials to cross-site requests too, and
 * a GET with `?path=` queues: the one cross-site policy (same-origin.ts) for
 * every method, without the form token (webhook senders send no such headers).
 */
function refuseCrossSite(req: IncomingMessage): void {
  const refusal = crossSiteRefusal(req, false);
  if (refusal !== undefined) throw new HttpError(403, refusal);
}
