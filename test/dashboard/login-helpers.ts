import { hashPassword } from "../../src/auth/password-hash.js";
import type { TestService } from "../helpers/service.js";

export const USER = "admin";
export const PASSWORD = "correct horse battery";

let hash: Promise<string> | undefined;
/** The argon2id hash of PASSWORD, made once per test file (it takes ~50 ms). */
export function passwordHash(): Promise<string> {
  hash ??= hashPassword(PASSWORD);
  return hash;
}

/** Config overrides that turn the dashboard login on. */
export async function withLogin(): Promise<{ SERVER_USERNAME: string; SERVER_PASSWORD_HASH: string }> {
  return { SERVER_USERNAME: USER, SERVER_PASSWORD_HASH: await passwordHash() };
}

/** Posts the login form as a script would (no Origin, no Sec-Fetch-Site), without following the redirect. */
export function postLogin(t: TestService, username: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${t.base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", ...headers },
    body: new URLSearchParams({ username, password }).toString(),
  });
}

/** Logs in and returns the `Cookie` header value that carries the session. */
export async function sessionCookieOf(t: TestService): Promise<string> {
  const res = await postLogin(t, USER, PASSWORD);
  if (res.status !== 303) throw new Error(`login answered ${res.status}`);
  const set = res.headers.get("set-cookie") ?? "";
  return set.split(";")[0] ?? "";
}

/** GET without following redirects. */
export function get(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { redirect: "manual", headers });
}
