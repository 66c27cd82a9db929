import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { createPassCheck } from "./pass.js";

/** The hidden field the manual page's form carries its token in. */
export const FORM_TOKEN_FIELD = "formToken";

/**
 * A token only pages this process served know: a page from another site can
 * make a browser POST to `/<pass>`, but cannot read ours to learn the token.
 * It changes on every start; a page open across a restart is reloaded once.
 */
export interface FormToken {
  readonly value: string;
  matches(presented: unknown): boolean;
}

export function createFormToken(): FormToken {
  const value = randomBytes(24).toString("base64url");
  const check = createPassCheck(value);
  return { value, matches: (presented) => typeof presented === "string" && check(presented) };
}

const ALLOWED_FETCH_SITES = new Set(["same-origin", "none"]);

/**
 * Why a scan request is refused as a cross-site browser request, or
 * undefined when it may go on. Browsers say where a request comes from
 * (`Sec-Fetch-Site`, `Origin`); the *arr apps, curl and scripts send neither
 * and are not browsers, so they pass. A form token from our own page passes
 * too, for browsers behind a proxy that rewrites Host.
 */
export function crossSiteRefusal(req: IncomingMessage, hasValidFormToken: boolean): string | undefined {
  if (hasValidFormToken) return undefined;
  const site = header(req, "sec-fetch-site");
  if (site !== undefined) {
    return ALLOWED_FETCH_SITES.has(site.toLowerCase())
      ? undefined
      : `a browser sent this request from another site (Sec-Fetch-Site: ${site.slice(0, 32)}); use the manual page of this server`;
  }
  const origin = header(req, "origin");
  if (origin === undefined) return undefined;
  if (hostOf(origin) === header(req, "host")?.toLowerCase()) return undefined;
  return `a browser sent this request from another origin (${origin.slice(0, 100)}); use the manual page of this server`;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `host[:port]` of an Origin header; undefined for "null" or anything that is not a URL. */
function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}
