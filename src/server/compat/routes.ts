import type { IncomingMessage, ServerResponse } from "node:http";
import type { ScanServerDeps } from "../app.js";
import { HttpError } from "../http-error.js";
import { crossSiteRefusal } from "../same-origin.js";
import { handleATrain, handleManual, handleNamed } from "./handlers.js";

/** How the caller proved itself: HTTP Basic on `/triggers/…`, or the pass in `/<pass>/triggers/…`. */
export type TriggerAuth = "basic" | "pass";

/**
 * The autoscan- and autopulse-compatible routes. `rest` is the path after
 * `triggers`: `[manual]`, `[a-train, <drive>]` or `[<name>]`.
 */
export async function handleTriggers(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  rest: string[],
  deps: ScanServerDeps,
  auth: TriggerAuth,
): Promise<void> {
  const compat = deps.compat;
  if (compat === undefined) throw new HttpError(404, "no such route");
  // Browsers attach remembered Basic credentials to cross-site requests too, and
  // GET with ?path= queues: the one policy for every method, no form token here.
  const refusal = crossSiteRefusal(req, false);
  if (refusal !== undefined) throw new HttpError(403, refusal);
  if (auth === "basic") {
    const verdict = await compat.basicAuth.check(req.headers.authorization, req.socket.remoteAddress ?? "unknown");
    if (!verdict.ok) {
      if (verdict.challenge) res.setHeader("www-authenticate", 'Basic realm="scanarr", charset="UTF-8"');
      if (verdict.retryAfterSeconds !== undefined) res.setHeader("retry-after", String(verdict.retryAfterSeconds));
      if (verdict.status === 429)
        deps.logger.warn({ remote: req.socket.remoteAddress }, "too many failed logins on /triggers; refusing for a while");
      throw new HttpError(verdict.status, verdict.reason);
    }
  }
  const withCompat = { ...deps, compat };
  const [name, drive, ...extra] = rest;
  if (name === undefined) throw new HttpError(404, "name a trigger: /triggers/<name>");
  if (name === "a-train") {
    if (drive === undefined || extra.length > 0) throw new HttpError(404, "the A-Train route is /triggers/a-train/<drive>");
    return handleATrain(req, res, drive, withCompat);
  }
  if (drive !== undefined) throw new HttpError(404, "no such route");
  if (name === "manual") return handleManual(req, res, url, withCompat);
  const type = compat.triggers.get(name);
  if (type === undefined) {
    throw new HttpError(
      404,
      `no trigger named ${JSON.stringify(name.slice(0, 64))}; configured: ${[...compat.triggers.keys(), "manual", "a-train/<drive>"].join(", ")}`,
    );
  }
  return handleNamed(req, res, url, name, type, withCompat);
}
