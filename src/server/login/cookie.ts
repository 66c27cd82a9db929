import type { IncomingMessage } from "node:http";

/** The dashboard session cookie's name. */
export const SESSION_COOKIE = "scanarr_session";

/** Every value the request carries for cookie `name` (a browser may send several, from different paths). */
export function readCookies(req: IncomingMessage, name: string): string[] {
  const header = req.headers.cookie;
  if (header === undefined) return [];
  const values: string[] = [];
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    values.push(pair.slice(eq + 1).trim());
  }
  return values;
}

/**
 * Whether the browser reached us over https: our own TLS socket, or a proxy
 * saying so in `X-Forwarded-Proto`. The header is taken from anyone because
 * it can only add `Secure`: a client that lies gets a cookie its own
 * plain-http browser will not send back, and nobody else is affected.
 */
export function cameOverHttps(req: IncomingMessage): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const proto = req.headers["x-forwarded-proto"];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(",")[0]?.trim().toLowerCase();
  return first === "https";
}

/**
 * The Set-Cookie value for a session. No Path attribute on purpose: the
 * browser then scopes the cookie to the directory of the login address it
 * posted to, which is the dashboard's base as the browser sees it
 * (`/<pass>`, or `/scanarr/<pass>` behind a proxy adding a prefix) without
 * the server having to know the prefix. No Domain: host-only.
 */
export function sessionCookie(id: string, options: { secure: boolean; maxAgeMs: number }): string {
  return [
    `${SESSION_COOKIE}=${id}`,
    `Max-Age=${Math.floor(options.maxAgeMs / 1000)}`,
    "HttpOnly",
    "SameSite=Strict",
    ...(options.secure ? ["Secure"] : []),
  ].join("; ");
}

/** Tells the browser to forget the session cookie (logout). */
export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie("", { secure, maxAgeMs: 0 });
}
